#!/usr/bin/env python3
"""Check turns.jsonl and qa.jsonl of this development set with ../multiparty/validate.py; print counts. Exit 1 on any error."""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.exit(subprocess.call([sys.executable, str(HERE.parent / "multiparty" / "validate.py"), str(HERE)]))
