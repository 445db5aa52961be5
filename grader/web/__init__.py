"""`grader play`: a local page and its JSON API (issue 24). The app layer only: every answer
comes from the engine calls the command line makes (grader.app.answers, grader.core.hints,
grader.core.analysis) and the board is each genre's own SVG (Genre.render_svg)."""
