// Door of plan mode: the /plan command, the mode's prompt and its present_plan tool.
export { PLAN_MODE_NOTE, installPlanMode, type PlanModeControl, type PlanToolSet } from "./install-plan-mode.js";
export { PRESENT_PLAN_TOOL, planSteps, presentedPlan, type PresentPlanInput } from "./present-plan-tool.js";
