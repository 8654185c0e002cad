"""Runs a script in a bubblewrap stand-in for a container: the host's /usr and
Python, /tmp fresh, the given directories bound; stdout and stderr in order."""
import os
import subprocess
import sys


def run_in_sandbox(binds, script, timeout=300):
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix) if not os.path.realpath(p).startswith("/usr")}
    args = ["bwrap", "--unshare-pid", "--unshare-net", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
            "--symlink", "usr/lib64", "/lib64", "--ro-bind", "/etc", "/etc", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for p in sorted(prefixes):
        args += ["--ro-bind", p, p]
    for host, inside in binds.items():
        args += ["--bind", host, inside]
    args += ["--chdir", "/", "bash", "-c", f"bash {script} 2>&1"]
    py = os.path.dirname(os.path.realpath(sys.executable))
    return subprocess.run(args, capture_output=True, text=True, env={"PATH": f"{py}:/usr/bin:/bin", "HOME": "/tmp"}, timeout=timeout).stdout
