"""`python -m kb.bench`: the benchmark command line, which lives in kb/eval/bench.py."""
import sys

from kb.eval.bench import main

if __name__ == "__main__":
    sys.exit(main())
