"""rules/ ships inside the package as grader.rules (package data read by grader.core.resources)."""
