"""The command-line reference (docs/cli.md), generated from the commands' own help.

``python -m cli.reference > docs/cli.md`` rewrites it; a test fails when the file is out of date.
"""

from __future__ import annotations

import click

from cli.main import main

SETTINGS = {"terminal_width": 100, "max_content_width": 100, "help_option_names": ["-h", "--help"]}


def reference() -> str:
    ctx = click.Context(main, info_name="tarot-analyzer", **SETTINGS)
    parts = ["# Command-line reference", "",
             "Generated from `--help` by `python -m cli.reference > docs/cli.md`; do not edit by hand.", "",
             "```text", main.get_help(ctx), "```", ""]
    for name in main.list_commands(ctx):
        parts += _command_help(main.get_command(ctx, name), name, ctx)
    return "\n".join(parts)


def _command_help(command: click.Command, name: str, parent: click.Context) -> list[str]:
    """A command's help, then each subcommand's when it is a group (``record check`` …)."""
    ctx = click.Context(command, info_name=name.split()[-1], parent=parent, **SETTINGS)
    parts = [f"## {name}", "", "```text", command.get_help(ctx), "```", ""]
    for sub in sorted(getattr(command, "commands", {})):
        parts += _command_help(command.commands[sub], f"{name} {sub}", ctx)
    return parts


if __name__ == "__main__":
    click.echo(reference(), nl=False)
