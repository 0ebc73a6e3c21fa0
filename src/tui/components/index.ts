// Door of the screen's React components (Ink): one component per file.
export { App, type AppProps } from "./App.js";
export { StandaloneDialog } from "./StandaloneDialog.js";
