// Door of plugs/resources.
export { installResources } from "./install-resources.js";
