"""`python -m kb`: ingest, stats and delete from the command line."""
from kb.cli import main

raise SystemExit(main())
