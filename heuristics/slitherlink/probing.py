"""Level 5: for one edge, assume a line and assume a cross; fill in greedily with the easier
techniques; keep what both agree on, or drop the assumption that breaks a rule."""
from grader.probing import register_probing

from .common import GENRE

trial_and_error = register_probing(
    GENRE, catalogue="for one edge: assume edge, and assume empty. fill in greedily and do the usual stuff")
