// Setup of every project: the temporary directories a test file made (test/support/temp-dir.ts) go when its tests end.
import { afterAll } from "vitest";
import { removeTempDirs } from "./temp-dir.js";

afterAll(removeTempDirs);
