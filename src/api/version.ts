/** The package version, answered by /v1/health; keep equal to package.json. */
export const VERSION = '0.1.0';
