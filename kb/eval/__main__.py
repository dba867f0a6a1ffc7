"""`python -m kb.eval.run`: the evaluation command line (kb/eval/run.py)."""
import sys

from kb.eval.run import main

sys.exit(main())
