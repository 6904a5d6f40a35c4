"""Kernels compiled once and called through a pointer (``SharedKernel``), not linked into every caller.

A kernel calling another links the callee's code into its own module, where LLVM optimises it and emits
its machine code again: every driver calling the search (or the heuristic's ``advance``, or dealing into
play) compiled a copy of it (docs/journal/compiling.md, "the shared kernels").  A shared kernel is
compiled for one set of argument types (or loaded from the cache) once per process, when a caller first
calls it, and its callers hold a call through a process-wide symbol (``tarot_analyzer_<name>``) that each
process defines when it imports the kernel's module, before any caller can be loaded from the cache.
Arguments of other types are refused where the caller compiles.
"""

from __future__ import annotations

import ctypes
import threading

import llvmlite.binding as llvm
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.errors import TypingError

WORDS = types.Array(types.uint64, 1, "C")     # the kernels' arrays of card words, and of integers
INTS = types.Array(types.int64, 1, "C")
_loading = threading.Lock()
_kept: list = []        # the pointers and loaders of this process's symbols (ctypes frees what it drops)


def _pointer(symbol: str) -> ctypes.c_void_p:
    """The process-wide pointer named ``symbol`` (null until loaded); a second import of the package finds
    the first's."""
    address = llvm.address_of_symbol(symbol)
    if address is not None:
        return ctypes.c_void_p.from_address(address)
    pointer = ctypes.c_void_p(0)
    _kept.append(pointer)
    llvm.add_symbol(symbol, ctypes.addressof(pointer))
    return pointer


def _declared(module, name: str, kind):
    """The external symbol ``name`` in ``module``: a global of type ``kind``, or a function of that type."""
    if name in module.globals:
        return module.globals[name]
    if isinstance(kind, ir.FunctionType):
        return ir.Function(module, kind, name)
    symbol = ir.GlobalVariable(module, kind, name)
    symbol.linkage = "external"
    return symbol


class SharedKernel:
    """``kernel`` (a Numba dispatcher) compiled for exactly ``arg_types``, returning ``returns``, and called
    through the symbol ``tarot_analyzer_<name>``: an intrinsic's typer returns ``typed(*its arguments)``.
    The first call compiles or loads it (``load``, through a ctypes callback: it takes the GIL, so a
    ``nogil`` kernel on any thread may make it)."""

    def __init__(self, kernel, name: str, arg_types: tuple, returns) -> None:
        self.kernel, self.name, self.arg_types, self.returns = kernel, name, arg_types, returns
        self.symbol, self.loader_symbol = f"tarot_analyzer_{name}", f"tarot_analyzer_load_{name}"
        self.pointer = _pointer(self.symbol)
        if llvm.address_of_symbol(self.loader_symbol) is None:
            loader = ctypes.CFUNCTYPE(None)(self.load)
            _kept.append(loader)
            llvm.add_symbol(self.loader_symbol, ctypes.cast(loader, ctypes.c_void_p).value)

    def load(self) -> None:
        """Compiles the kernel for its types, or loads it from the cache, and sets the pointer; once."""
        with _loading:
            if self.pointer.value:
                return
            self.kernel.compile(self.arg_types)
            compiled = self.kernel.overloads[self.arg_types]
            if compiled.signature.return_type != self.returns:
                raise TypeError(f"{self.name} returns {compiled.signature.return_type}, not {self.returns}")
            self.pointer.value = compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)

    def typed(self, *args):
        """The intrinsic's signature and code for a call with argument types ``args`` (exactly the kernel's,
        constants aside: anything else is refused where the caller compiles)."""
        if tuple(types.unliteral(a) for a in args) != self.arg_types:
            raise TypingError(f"{self.name} takes exactly {self.arg_types}, not {args}")
        return self.returns(*self.arg_types), self._codegen

    def _codegen(self, context, builder, signature, values):
        address = _declared(builder.module, self.symbol, ir.IntType(8).as_pointer())
        with builder.if_then(cgutils.is_null(builder, builder.load(address)), likely=False):
            builder.call(_declared(builder.module, self.loader_symbol, ir.FunctionType(ir.VoidType(), [])), [])
        function = builder.load(address)
        with builder.if_then(cgutils.is_null(builder, function), likely=False):
            context.call_conv.return_user_exc(builder, RuntimeError, (f"{self.name} could not be loaded",))
        kind = context.call_conv.get_function_type(self.returns, self.arg_types)
        status, result = context.call_conv.call_function(builder, builder.bitcast(function, kind.as_pointer()),
                                                         self.returns, self.arg_types, values)
        with builder.if_then(status.is_error, likely=False):
            context.call_conv.return_status_propagate(builder, status)
        return result
