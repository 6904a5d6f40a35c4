"""One-way imports (cli -> analyzer -> kernels): kernels import only numpy, numba, kernels and a few
standard modules; analyzer never imports cli; every jitted kernel is cached; the command line starts
without the heavy libraries only some commands use; no package grows past MAX_MODULES modules (group
them by concern in a subpackage instead, as analyzer/advice, coach, quality and records do)."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_MODULES = 25


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_kernels_import_only_numpy_numba_and_kernels():
    # math: erfc in nopython; fcntl: the lock around saves to the kernel cache (kernels/__init__.py);
    # ctypes, llvmlite (Numba's) and threading: the search's pointer, its loader (once, whatever the
    # threads calling it) and the call through it (kernels/shared.py)
    allowed = {"numpy", "numba", "kernels", "__future__", "hashlib", "os", "pathlib", "math", "fcntl", "ctypes",
               "llvmlite", "threading"}
    for path in (ROOT / "kernels").glob("*.py"):
        assert imported_roots(path) <= allowed, (path.name, imported_roots(path) - allowed)


def test_no_package_grows_past_max_modules():
    for package in ("analyzer", "kernels", "cli"):
        for folder in [ROOT / package, *(p.parent for p in (ROOT / package).rglob("*/__init__.py"))]:
            modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
            assert len(modules) <= MAX_MODULES, (str(folder.relative_to(ROOT)), len(modules))


def test_analyzer_does_not_import_the_cli():
    for path in (ROOT / "analyzer").rglob("*.py"):
        assert "cli" not in imported_roots(path), path.name


def test_every_jitted_kernel_is_cached():
    for path in (ROOT / "kernels").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                for deco in node.decorator_list:
                    if isinstance(deco, ast.Call) and getattr(deco.func, "id", "") == "njit":
                        assert any(k.arg == "cache" and k.value.value is True for k in deco.keywords), \
                            f"{path.name}:{node.name}"


def test_the_command_line_starts_without_pandas_or_matplotlib():
    # Every command imports cli.main; pandas and matplotlib (about a second together) are imported by
    # the commands that use them (batch, summarize, compare-play, analyze's HTML), not at the start.
    code = "import sys, cli.main; print(sorted({'pandas', 'matplotlib', 'pyarrow', 'dask'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_every_command_loads_under_its_own_name():
    import click

    from cli.main import COMMANDS, main
    ctx = click.Context(main, info_name="tarot-analyzer")
    assert main.list_commands(ctx) == sorted(COMMANDS)
    for name in COMMANDS:
        command = main.get_command(ctx, name)
        assert isinstance(command, click.Command) and command.name == name, name
    assert main.get_command(ctx, "no-such-command") is None


def test_a_command_loads_only_its_own_module():
    # Lazy loading (cli.main.COMMANDS): `bid` does not wait for the imports of calibrate, analyze or
    # the records' commands.
    code = ("import sys, click, cli.main; m = cli.main.main; m.get_command(click.Context(m), 'bid'); "
            "print(sorted(n for n in sys.modules if n.startswith('cli.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = "['cli.advice', 'cli.main', 'cli.options', 'cli.progress', 'cli.simulation_options']"
    assert out.stdout.strip() == loaded, out.stdout


def test_a_command_that_simulates_nothing_starts_without_numba():
    # score checks and scores a summary: neither it nor the group imports Numba (much of a start's time);
    # the simulations' options live apart (cli.simulation_options).
    code = ("import sys, click, cli.main; m = cli.main.main; m.get_command(click.Context(m), 'score'); "
            "print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stdout
