// What Vite puts in import.meta.env for the demo (scripts/demo-shared.js sets it).
interface ImportMetaEnv {
  readonly VITE_QUESTBOARD_SERVER?: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
