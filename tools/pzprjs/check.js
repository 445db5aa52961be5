// Open puzz.link URLs with pzpr.js (npm's "pzpr", the library puzz.link is built on) and say
// how it reads them: the URL it writes back for the board it read, and its own answer check of
// an answer set on that board. Used by tools/pzprjs/check.py; one JSON object a line each way.
//
//   in:  {"url": "https://puzz.link/p?lightup/10/10/...",
//         "cells": [[bx, by], ...],            cells to shade (a light in Light Up)
//         "lines": [[bx1, by1, bx2, by2, n]]}  n lines on the borders from (bx1,by1) to (bx2,by2)
//   out: {"url", "pid", "written": the URL pzpr writes, "blank_complete": its check of the board
//         before the answer (false, or the check proves nothing), "complete": its check with the
//         answer, "text": why not}
//
// Coordinates are pzpr's: cell r,c (from 0) is (2c+1, 2r+1); a border is between two cells.
// PZPR_MODULES is the node_modules folder holding pzpr (default ~/.cache/grader-pzprjs/node_modules).
'use strict';
const path = require('path');
const readline = require('readline');
const modules = process.env.PZPR_MODULES ||
    path.join(require('os').homedir(), '.cache', 'grader-pzprjs', 'node_modules');
const pzpr = require(path.join(modules, 'pzpr'));

function check(job) {
    const puzzle = new pzpr.Puzzle({type: 'player'});
    puzzle.open(job.url.replace(/^[^?]*\?/, ''));
    const out = {url: job.url, pid: puzzle.pid, written: puzzle.getURL()};
    out.blank_complete = !!puzzle.check(true).complete;    // a blank board must fail the check
    const board = puzzle.board;
    for (const [bx, by] of job.cells || []) board.getc(bx, by).setQans(1);
    for (const [x1, y1, x2, y2, n] of job.lines || []) {
        board.borderinside(x1, y1, x2, y2).each((border) => border.setLineVal(n));
    }
    const result = puzzle.check(true);
    out.complete = !!result.complete;
    if (!result.complete) out.text = result.text;
    return out;
}

const rl = readline.createInterface({input: process.stdin});
rl.on('line', (line) => {
    if (!line.trim()) return;
    const job = JSON.parse(line);
    let out;
    try {
        out = check(job);
    } catch (e) {
        out = {url: job.url, error: String(e && e.message || e)};
    }
    process.stdout.write(JSON.stringify(out) + '\n');
});
