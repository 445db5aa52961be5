/*
 * One driver for every game of Simon Tatham's Portable Puzzle Collection: it reads a game ID
 * with the game's own parser, runs the game's own solver (the back end's `solve`, what the
 * "Solve" menu item runs), and prints how long that solver took, in this process, and the
 * solved board in the game's own text format. Linked with one game's source by build.sh, as
 * upstream links its STANDALONE_SOLVER programs; Bridges and Range have no such program.
 *
 *     <game>-solve [-r REPEATS] 'PARAMS:DESC'
 *     <game>-solve -m MOVE 'PARAMS:DESC'
 *
 * prints "seconds S" (the mean over the repeats of one solve from the fresh game), "move M" (the
 * solver's answer as the game's move string) and then the solved board in the game's text
 * format; exit 1 with "unreadable: ..." when the game does not read the ID, "unsolved: ..." when
 * its solver gives no solution. With -m it plays MOVE (move strings of the game's own, one a
 * line, such as an answer to check) instead of solving, and prints "status N" (the game's own verdict: 1
 * solved, 0 not yet, -1 lost) and the board after it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "puzzles.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int repeats = 1;
    char *id = NULL, *play = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc)
            repeats = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-m") && i + 1 < argc)
            play = argv[++i];
        else
            id = argv[i];
    }
    if (!id || repeats < 1) {
        fprintf(stderr, "usage: %s [-r REPEATS | -m MOVE] PARAMS:DESC\n", argv[0]);
        return 2;
    }
    char *desc = strchr(id, ':');
    if (!desc) {
        printf("unreadable: a game ID has a colon\n");
        return 1;
    }
    *desc++ = '\0';

    game_params *params = thegame.default_params();
    thegame.decode_params(params, id);
    const char *err = thegame.validate_params(params, false);
    if (!err)
        err = thegame.validate_desc(params, desc);
    if (err) {
        printf("unreadable: %s\n", err);
        return 1;
    }
    game_state *state = thegame.new_game(NULL, params, desc);
    if (play) {     /* moves one a line, played in turn */
        game_state *after = state;
        for (char *line = strtok(play, "\n"); line && after; line = strtok(NULL, "\n"))
            after = thegame.execute_move(after, line);
        if (!after) {
            printf("unplayable: the game refuses the move\n");
            return 1;
        }
        printf("status %d\n", thegame.status(after));
        if (thegame.can_format_as_text_ever) {
            char *text = thegame.text_format(after);
            fputs(text, stdout);
            sfree(text);
        }
        return 0;
    }
    char *move = NULL;
    double t0 = now();
    for (int k = 0; k < repeats; k++) {
        if (move)
            sfree(move);
        err = NULL;
        move = thegame.solve(state, state, NULL, &err);
        if (!move)
            break;
    }
    double seconds = (now() - t0) / repeats;
    if (!move) {
        printf("unsolved: %s\n", err ? err : "the solver gave no solution");
        return 1;
    }
    printf("seconds %.9f\nmove %s\n", seconds, move);
    game_state *solved = thegame.execute_move(state, move);
    if (!solved) {
        printf("unsolved: the solver's move does not apply\n");
        return 1;
    }
    if (thegame.can_format_as_text_ever) {
        char *text = thegame.text_format(solved);
        fputs(text, stdout);
        sfree(text);
    }
    return 0;
}
