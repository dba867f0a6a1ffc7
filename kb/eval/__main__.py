"""`python -m kb.eval`: the evaluation command line (kb/eval/run.py)."""
import sys

from kb.eval.run import main

sys.exit(main())
