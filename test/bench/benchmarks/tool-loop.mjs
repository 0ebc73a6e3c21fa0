// The tool loop's client side: the first bash call of a process must not wait for the shell grammar (loaded and
// warmed beside the model's first request).
import { ms, repeat } from "../lib.mjs";
import { runProbe } from "../probes/run-probe.mjs";

/** A quick model's first answer: the preload has this long. */
const MODEL_MS = 300;

export default {
	name: "tool loop",
	async run({ smoke }) {
		const runs = smoke ? 1 : 7;
		const warm = await repeat(runs, async () => (await runProbe("first-bash", { preload: true, delay: MODEL_MS })).ms);
		const cold = await repeat(runs, async () => (await runProbe("first-bash", { preload: false, delay: MODEL_MS })).ms);
		return [
			{
				metric: "first bash call",
				workload: `reading its line for the policy, ${MODEL_MS} ms after the session was assembled; without the preload: ${ms(cold.median)}`,
				...warm,
				format: ms,
				target: "< 10 ms",
				pass: warm.median < 10,
			},
		];
	},
};
