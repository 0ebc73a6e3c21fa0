// Imported first by main.ts: loom holds the signals that end it before the rest of the command loads (termination.ts).
import { installTermination } from "./termination.js";

installTermination();
