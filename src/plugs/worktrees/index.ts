// Door of the worktrees: git worktrees of the user's repository, detached (loom batch's tasks) or on branches of their own (subagents, --worktree).
export { GIT_IDENTITY, addWorktree, git, gitTop, removeWorktree } from "./git-run.js";
export { BRANCH_PREFIX, discardBranch, loomBranches, mergeBranch, startBranchWorktree, type BranchWorktree, type FinishedWorktree } from "./branch-worktrees.js";
