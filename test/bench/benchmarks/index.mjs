// The benchmarks, in the order they are reported.
import batch from "./batch.mjs";
import checkpoints from "./checkpoints.mjs";
import grep from "./grep.mjs";
import fileCompletion from "./file-completion.mjs";
import loopOverhead from "./loop-overhead.mjs";
import lspDiagnostics from "./lsp-diagnostics.mjs";
import parallelTools from "./parallel-tools.mjs";
import screenReady from "./screen-ready.mjs";
import sdkFirstPrompt from "./sdk-first-prompt.mjs";
import sandbox from "./sandbox.mjs";
import sessions from "./sessions.mjs";
import startup from "./startup.mjs";
import streamingScreen from "./streaming-screen.mjs";
import toolIo from "./tool-io.mjs";
import toolLoop from "./tool-loop.mjs";

export const benchmarks = [startup, sdkFirstPrompt, screenReady, loopOverhead, toolLoop, parallelTools, streamingScreen, toolIo, sessions, grep, fileCompletion, checkpoints, sandbox, lspDiagnostics, batch];
