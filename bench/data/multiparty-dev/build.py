#!/usr/bin/env python3
"""Build turns.jsonl and qa.jsonl of this development set from source/ with ../multiparty/build.py
(the same source format, documented there), for these conversations in this order."""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.exit(subprocess.call([sys.executable, str(HERE.parent / "multiparty" / "build.py"), str(HERE), "mpd-cafe", "mpd-ward", "mpd-radio"]))
