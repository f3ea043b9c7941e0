"""record_wait.py: a test job's wait on its own stagetop record, a condition
instead of a fixed sleep (the e2e stage tests' jobs import it:
sys.path gets $ST_ROOT/tests/lib, which tests/run-tests.sh exports).

wait_samples(rec, k): until the record at rec has k more sample lines than
when called (at most 120 s: a run that stalls fails on its own checks)."""
import time


def samples(rec):
    try:
        with open(rec) as fh:
            return sum(1 for line in fh if line.startswith('{"type":"sample"'))
    except OSError:
        return 0


def wait_samples(rec, k):
    n0, end = samples(rec), time.monotonic() + 120
    while samples(rec) < n0 + k and time.monotonic() < end:
        time.sleep(0.005)
