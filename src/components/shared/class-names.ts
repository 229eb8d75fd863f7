/**
 * The class attribute for these switches: the names whose value is true. An attribute binding
 * serves the shadow roots here as well as Lit's classMap directive would (no one else adds
 * classes there), without the directive's code in the embed.
 */
export const classNames = (switches: Record<string, boolean>): string =>
  Object.keys(switches)
    .filter((name) => switches[name])
    .join(' ');
