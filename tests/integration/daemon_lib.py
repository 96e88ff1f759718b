"""Helpers for the Python tests that run the cantonlite executable (and other processes): start
one and wait for its start-up line, and fail with its log, stopping everything started."""
import re
import subprocess
import sys
import tempfile
import time


class Check:
    """One ctest check: its name in failures, and the processes it started."""

    def __init__(self, name):
        self.name = name
        self.processes = []

    def fail(self, message, log=None):
        print(f"FAIL {self.name}: {message}")
        if log:
            with open(log) as f:
                print("--- log:\n" + f.read()[-3000:])
        for p in self.processes:
            p.kill()
        sys.exit(1)

    def start(self, args, pattern, what, seconds=30):
        """Starts `args` with its output in a log file; returns (the first group of `pattern` in
        that output, the log's path, the process) once it appears."""
        log = tempfile.NamedTemporaryFile(delete=False, suffix=".log").name
        process = subprocess.Popen(args, stdout=open(log, "w"), stderr=subprocess.STDOUT)
        self.processes.append(process)
        for _ in range(seconds * 10):
            with open(log) as f:
                found = re.search(pattern, f.read())
            if found:
                return found.group(1), log, process
            if process.poll() is not None:
                break
            time.sleep(0.1)
        self.fail(what + " did not start", log)

    def start_daemon(self, binary, *args):
        """`binary serve --port 0 args...`; returns (process, port, log)."""
        port, log, process = self.start([binary, "serve", "--port", "0", *args],
                                        r"serving on [^ ]*:(\d+) ", "the daemon")
        return process, int(port), log

    def stop_all(self):
        for p in self.processes:
            p.terminate()
            p.wait(timeout=10)
