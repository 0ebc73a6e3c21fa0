// Placeholder entry until the command lands (issue 5).
console.log("loom 0.1.0");
