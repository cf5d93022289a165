"""Python's name-binding rules over a libcst tree: which occurrences of a name are one variable.

The analysis follows the compiler's symbol table (CPython ``symtable.c``): module, class, function,
lambda and comprehension scopes; defaults, annotations, decorators, class bases and a comprehension's
first iterable evaluated in the enclosing scope; ``global``/``nonlocal``; walrus targets binding in
the nearest non-comprehension scope; class scopes invisible to nested functions. The test-suite
checks it against :mod:`symtable` on every benchmark program. libcst's ``ScopeProvider`` answers the
same question but costs about ten parses per program; this walk costs a twentieth of one.

Besides variables it records what renaming needs to stay behaviour-preserving: calls whose keyword
arguments name parameters, functions whose every caller is visible, and dynamic name access
(``eval``, ``locals()``, star imports) that pins names in place.
"""

from __future__ import annotations

import builtins
import keyword
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

import libcst as cst

from mutators.tree import iter_children

BUILTIN_NAMES = frozenset(dir(builtins))
RESERVED_NAMES = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | BUILTIN_NAMES
# Builtins that read or write a scope's variables by their spelled names.
_DYNAMIC_LOCALS = frozenset({"eval", "exec", "locals", "vars", "dir"})
_DYNAMIC_GLOBALS = frozenset({"globals", "eval", "exec"})
# What reaches a frame's or a code object's variable names (a caller's too, through ``f_back``): a
# program that spells any of them, as a name, an attribute or a string, keeps every name it has.
_FRAME_INTROSPECTION = frozenset({
    "_getframe", "currentframe", "stack", "trace", "getouterframes", "getinnerframes", "f_locals", "f_back",
    "f_code", "tb_frame", "gi_frame", "cr_frame", "ag_frame", "__code__", "co_varnames", "co_cellvars",
    "co_freevars", "co_names", "signature", "getfullargspec", "getargs", "getargvalues", "getcallargs",
    "__signature__", "__closure__",
})


def identifier(spelled: str) -> str:
    """A name as Python reads it. The parser NFKC-normalises identifiers (``file`` spelled with the
    ligature U+FB01, or in full-width letters, is ``file``); libcst keeps them as spelled, so every
    comparison of names here uses this form."""
    return spelled if spelled.isascii() else unicodedata.normalize("NFKC", spelled)


class ScopeKind(str, Enum):
    """The kinds of scope CPython's symbol table distinguishes."""

    MODULE = "module"
    CLASS = "class"
    FUNCTION = "function"
    LAMBDA = "lambda"
    COMPREHENSION = "comprehension"

    def __str__(self) -> str:
        return self.value


@dataclass(eq=False)
class Scope:
    kind: ScopeKind
    parent: Scope | None
    node: cst.CSTNode | None = None
    bound: dict[str, Variable] = field(default_factory=dict)
    declared_global: set[str] = field(default_factory=set)
    declared_nonlocal: set[str] = field(default_factory=set)
    dynamic: bool = False


@dataclass(eq=False)
class Variable:
    """One binding of a name in one scope, with every occurrence that refers to it."""

    name: str
    scope: Scope
    binding_kinds: set[str] = field(default_factory=set)
    occurrences: list[cst.Name] = field(default_factory=list)
    param_of: FunctionInfo | None = None
    param_kind: str = ""
    frozen_reason: str = ""


@dataclass(eq=False)
class FunctionInfo:
    node: cst.CSTNode
    scope: Scope
    name_variable: Variable | None = None
    params: dict[str, Variable] = field(default_factory=dict)
    called_with_double_star: bool = False


@dataclass(eq=False)
class _Call:
    node: cst.Call
    scope: Scope
    func_name: cst.Name | None
    keywords: list[cst.Name]
    double_star: bool


@dataclass(eq=False)
class _Occurrence:
    node: cst.Name
    name: str  # as Python reads it (see identifier)
    scope: Scope
    binding_kind: str  # "" for a read


@dataclass
class ExternalCall:
    """A call made from outside the program: the function's name and the keyword names it passes."""

    function: str
    keywords: tuple[str, ...] = ()
    double_star: bool = False


class ScopeAnalysis:
    """Bindings of one module. Build with :func:`analyze`."""

    def __init__(self) -> None:
        self.module_scope = Scope(ScopeKind.MODULE, None)
        self.scopes: list[Scope] = [self.module_scope]
        self.variables: list[Variable] = []
        self.functions: list[FunctionInfo] = []
        self.variable_of: dict[int, Variable] = {}  # id(Name) -> variable, keyword sites included
        self.all_identifiers: set[str] = set()
        self.star_import = False
        self.unresolved_keywords: set[str] = set()
        self.unresolved_double_star = False
        self.known_callers: set[int] = set()  # id(FunctionInfo) of functions only called directly
        self.class_bound_names: set[str] = set()
        self.read_by_name: set[int] = set()  # id(Variable) seen from a scope that reads by name
        self.binding_nodes: set[int] = set()  # id(Name) of occurrences that bind or declare
        self.scope_of: dict[int, Scope] = {}  # id(Name) -> scope the occurrence sits in

    def bound_names(self) -> set[str]:
        """Every name the program binds anywhere, class attributes included."""
        return {variable.name for variable in self.variables} | self.class_bound_names

    def renamable(self, interface: Interface) -> list[Variable]:
        """Variables that may take a new name, in order of first appearance."""
        _decide_freezes(self, interface)
        return [v for v in self.variables if not v.frozen_reason]


@dataclass
class Interface:
    """What the world outside the program can see.

    ``module_names_public``: importers may read module-level names (a library module), so they keep
    their names; a script or a benchmark function called only through ``external_calls`` has none.
    ``external_calls``: calls into the program whose keywords are known (CRUXEval's ``f(input)``).
    ``unknown_callers``: top-level functions may be called by anyone with any keyword.
    ``read_from_outside``: module-level names the outside world reads (the names CRUXEval's input
    refers to, as in ``f(thigh_o_two[:], 3)``), which keep their names.
    """

    module_names_public: bool = False
    external_calls: tuple[ExternalCall, ...] = ()
    unknown_callers: bool = False
    read_from_outside: frozenset[str] = frozenset()


class _Builder:
    def __init__(self) -> None:
        self.result = ScopeAnalysis()
        self.scope = self.result.module_scope
        self.occurrences: list[_Occurrence] = []
        self.calls: list[_Call] = []
        self.call_funcs: set[int] = set()
        self.decorated: set[int] = set()
        self.function_of_scope: dict[int, FunctionInfo] = {}
        self.def_name_nodes: dict[int, FunctionInfo] = {}
        self.param_nodes: dict[int, tuple[FunctionInfo, str]] = {}
        self.printing_source = 0  # > 0 inside f"{…=}", whose text is printed
        self.printed: set[int] = set()  # id(Name) spelled inside f"{…=}"

    # ----------------------------------------------------------------- generic walking
    def walk(self, node: cst.CSTNode) -> None:
        handler = _HANDLERS.get(type(node))
        if handler is not None:
            handler(self, node)
        else:
            for child in iter_children(node):
                self.walk(child)

    def walk_all(self, nodes: Iterable[cst.CSTNode | None]) -> None:
        for node in nodes:
            if isinstance(node, cst.CSTNode):
                self.walk(node)

    def push(self, kind: ScopeKind, node: cst.CSTNode) -> Scope:
        self.scope = Scope(kind, self.scope, node)
        self.result.scopes.append(self.scope)
        return self.scope

    def pop(self) -> None:
        self.scope = self.scope.parent

    def record(self, name: cst.Name, binding_kind: str = "", scope: Scope | None = None) -> None:
        read_as = identifier(name.value)
        self.result.all_identifiers.add(read_as)
        if read_as in ("True", "False", "None"):
            return
        if self.printing_source:
            self.printed.add(id(name))
        self.occurrences.append(_Occurrence(name, read_as, scope or self.scope, binding_kind))

    def bind_target(self, target: cst.BaseExpression, kind: str) -> None:
        if isinstance(target, cst.Name):
            self.record(target, kind)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self.bind_target(element.value, kind)
        elif isinstance(target, cst.StarredElement):
            self.bind_target(target.value, kind)
        else:
            self.walk(target)

    # ----------------------------------------------------------------- node handlers
    def on_name(self, node: cst.Name) -> None:
        self.record(node)

    def on_attribute(self, node: cst.Attribute) -> None:
        self.result.all_identifiers.add(identifier(node.attr.value))
        self.walk(node.value)

    def on_call(self, node: cst.Call) -> None:
        func_name = node.func if isinstance(node.func, cst.Name) else None
        if func_name is not None:
            self.call_funcs.add(id(func_name))
        self.walk(node.func)
        keywords = []
        double_star = False
        for arg in node.args:
            if arg.keyword is not None:
                keywords.append(arg.keyword)
                self.result.all_identifiers.add(identifier(arg.keyword.value))
            if arg.star == "**":
                double_star = True
            self.walk(arg.value)
        self.calls.append(_Call(node, self.scope, func_name, keywords, double_star))

    def walk_signature(self, params: cst.Parameters) -> list[tuple[cst.Param, str]]:
        """Walk defaults and annotations in the current scope; return the parameters in order."""
        ordered: list[tuple[cst.Param, str]] = []
        ordered += [(p, "positional_only") for p in params.posonly_params]
        ordered += [(p, "normal") for p in params.params]
        if isinstance(params.star_arg, cst.Param):
            ordered.append((params.star_arg, "star"))
        ordered += [(p, "keyword_only") for p in params.kwonly_params]
        if isinstance(params.star_kwarg, cst.Param):
            ordered.append((params.star_kwarg, "double_star"))
        for param, _ in ordered:
            if param.annotation is not None:
                self.walk(param.annotation.annotation)
            if param.default is not None:
                self.walk(param.default)
        return ordered

    def bind_params(self, info: FunctionInfo, ordered: list[tuple[cst.Param, str]]) -> None:
        for param, kind in ordered:
            self.record(param.name, "param")
            self.param_nodes[id(param.name)] = (info, kind)

    def on_function(self, node: cst.FunctionDef) -> None:
        for decorator in node.decorators:
            self.walk(decorator.decorator)
        self.record(node.name, "def")
        ordered = self.walk_signature(node.params)
        if node.returns is not None:
            self.walk(node.returns.annotation)
        scope = self.push(ScopeKind.FUNCTION, node)
        info = FunctionInfo(node, scope)
        self.function_of_scope[id(scope)] = info
        self.def_name_nodes[id(node.name)] = info
        if node.decorators:
            self.decorated.add(id(node.name))
        self.result.functions.append(info)
        self.bind_params(info, ordered)
        self.walk(node.body)
        self.pop()

    def on_lambda(self, node: cst.Lambda) -> None:
        ordered = self.walk_signature(node.params)
        scope = self.push(ScopeKind.LAMBDA, node)
        info = FunctionInfo(node, scope)
        self.function_of_scope[id(scope)] = info
        self.result.functions.append(info)
        self.bind_params(info, ordered)
        self.walk(node.body)
        self.pop()

    def on_class(self, node: cst.ClassDef) -> None:
        for decorator in node.decorators:
            self.walk(decorator.decorator)
        self.record(node.name, "class")
        for arg in list(node.bases) + list(node.keywords):
            self.walk(arg.value)
        self.push(ScopeKind.CLASS, node)
        self.walk(node.body)
        self.pop()

    def on_comprehension(self, node: cst.BaseComp) -> None:
        outer = self.scope
        self.push(ScopeKind.COMPREHENSION, node)
        if isinstance(node, cst.DictComp):
            self.walk(node.key)
            self.walk(node.value)
        else:
            self.walk(node.elt)
        comp_for: cst.CompFor | None = node.for_in
        first = True
        while comp_for is not None:
            self.bind_target(comp_for.target, "comprehension")
            if first:
                inner, self.scope = self.scope, outer
                self.walk(comp_for.iter)
                self.scope = inner
                first = False
            else:
                self.walk(comp_for.iter)
            for comp_if in comp_for.ifs:
                self.walk(comp_if.test)
            comp_for = comp_for.inner_for_in
        self.pop()

    def on_assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self.bind_target(target.target, "assign")
        self.walk(node.value)

    def on_aug_assign(self, node: cst.AugAssign) -> None:
        self.bind_target(node.target, "assign")
        self.walk(node.value)

    def on_ann_assign(self, node: cst.AnnAssign) -> None:
        self.bind_target(node.target, "assign")
        self.walk(node.annotation.annotation)
        if node.value is not None:
            self.walk(node.value)

    def on_for(self, node: cst.For) -> None:
        self.bind_target(node.target, "assign")
        self.walk(node.iter)
        self.walk(node.body)
        if node.orelse is not None:
            self.walk(node.orelse)

    def on_with_item(self, node: cst.WithItem) -> None:
        self.walk(node.item)
        if node.asname is not None:
            self.bind_target(node.asname.name, "assign")

    def on_except(self, node: cst.ExceptHandler) -> None:
        if node.type is not None:
            self.walk(node.type)
        if node.name is not None:
            self.bind_target(node.name.name, "except")
        self.walk(node.body)

    def on_import(self, node: cst.Import) -> None:
        for alias in node.names:
            if alias.asname is not None:
                self.record(alias.asname.name, "import")
            else:
                first = alias.name
                while isinstance(first, cst.Attribute):
                    first = first.value
                self.record(first, "import")

    def on_import_from(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar):
            self.result.star_import = True
            return
        for alias in node.names:
            self.record(alias.asname.name if alias.asname is not None else alias.name, "import")

    def on_global(self, node: cst.Global) -> None:
        for item in node.names:
            self.scope.declared_global.add(identifier(item.name.value))
            self.record(item.name, "declare")

    def on_nonlocal(self, node: cst.Nonlocal) -> None:
        for item in node.names:
            self.scope.declared_nonlocal.add(identifier(item.name.value))
            self.record(item.name, "declare")

    def on_del(self, node: cst.Del) -> None:
        self.bind_target(node.target, "del")

    def on_named_expr(self, node: cst.NamedExpr) -> None:
        target_scope = self.scope
        while target_scope.kind == ScopeKind.COMPREHENSION:
            target_scope = target_scope.parent
        if isinstance(node.target, cst.Name):
            self.record(node.target, "walrus", target_scope)
            # Inside the comprehensions the target is the enclosing scope's variable.
            declared = "declared_global" if target_scope.kind == ScopeKind.MODULE else "declared_nonlocal"
            scope = self.scope
            while scope is not target_scope:
                getattr(scope, declared).add(identifier(node.target.value))
                scope = scope.parent
        self.walk(node.value)

    def on_match_as(self, node: cst.MatchAs) -> None:
        if node.pattern is not None:
            self.walk(node.pattern)
        if node.name is not None:
            self.record(node.name, "match")

    def on_match_star(self, node: cst.MatchStar) -> None:
        if node.name is not None:
            self.record(node.name, "match")

    def on_match_mapping(self, node: cst.MatchMapping) -> None:
        for element in node.elements:
            self.walk(element.key)
            self.walk(element.pattern)
        if node.rest is not None:
            self.record(node.rest, "match")

    def on_match_class(self, node: cst.MatchClass) -> None:
        self.walk(node.cls)
        for element in node.patterns:
            self.walk(element.pattern)
        for keyword_element in node.kwds:
            self.result.all_identifiers.add(identifier(keyword_element.key.value))
            self.walk(keyword_element.pattern)

    def on_formatted_expression(self, node: cst.FormattedStringExpression) -> None:
        self.printing_source += node.equal is not None
        self.walk(node.expression)
        self.printing_source -= node.equal is not None
        self.walk_all(node.format_spec or ())

    def on_type_alias(self, node: cst.CSTNode) -> None:
        # PEP 695 scopes are not modelled: keep every name of such a program.
        self.result.star_import = True
        for child in iter_children(node):
            self.walk(child)


_HANDLERS = {
    cst.Name: _Builder.on_name,
    cst.Attribute: _Builder.on_attribute,
    cst.Call: _Builder.on_call,
    cst.FunctionDef: _Builder.on_function,
    cst.Lambda: _Builder.on_lambda,
    cst.ClassDef: _Builder.on_class,
    cst.ListComp: _Builder.on_comprehension,
    cst.SetComp: _Builder.on_comprehension,
    cst.GeneratorExp: _Builder.on_comprehension,
    cst.DictComp: _Builder.on_comprehension,
    cst.Assign: _Builder.on_assign,
    cst.AugAssign: _Builder.on_aug_assign,
    cst.AnnAssign: _Builder.on_ann_assign,
    cst.For: _Builder.on_for,
    cst.WithItem: _Builder.on_with_item,
    cst.ExceptHandler: _Builder.on_except,
    cst.ExceptStarHandler: _Builder.on_except,
    cst.Import: _Builder.on_import,
    cst.ImportFrom: _Builder.on_import_from,
    cst.Global: _Builder.on_global,
    cst.Nonlocal: _Builder.on_nonlocal,
    cst.Del: _Builder.on_del,
    cst.NamedExpr: _Builder.on_named_expr,
    cst.MatchAs: _Builder.on_match_as,
    cst.MatchStar: _Builder.on_match_star,
    cst.MatchMapping: _Builder.on_match_mapping,
    cst.MatchClass: _Builder.on_match_class,
    cst.FormattedStringExpression: _Builder.on_formatted_expression,
}
if hasattr(cst, "TypeAlias"):
    _HANDLERS[cst.TypeAlias] = _Builder.on_type_alias


def _binding_scope(scope: Scope, name: str, module: Scope) -> Scope | None:
    """The scope whose variable ``name`` denotes when it is bound or declared in ``scope``."""
    if name in scope.declared_global:
        return module
    if name in scope.declared_nonlocal:
        return _enclosing_function_binding(scope.parent, name, module)
    return scope


def _enclosing_function_binding(scope: Scope | None, name: str, module: Scope) -> Scope | None:
    while scope is not None and scope.kind != ScopeKind.MODULE:
        if scope.kind != ScopeKind.CLASS:
            if name in scope.declared_global:
                return module
            if name in scope.declared_nonlocal:
                scope = scope.parent
                continue
            if name in scope.bound:
                return scope
        scope = scope.parent
    return None


def _introspects_frames(module: cst.Module) -> bool:
    """Whether ``module`` spells a name of :data:`_FRAME_INTROSPECTION` (as a name, an attribute or a
    string literal such as ``getattr``'s)."""
    pending: list[cst.CSTNode] = [module]
    while pending:
        node = pending.pop()
        if isinstance(node, cst.Name) and identifier(node.value) in _FRAME_INTROSPECTION:
            return True
        if isinstance(node, cst.SimpleString) and node.raw_value.strip() in _FRAME_INTROSPECTION:
            return True
        pending.extend(iter_children(node))
    return False


def analyze(module: cst.Module) -> ScopeAnalysis:
    builder = _Builder()
    builder.walk(module)
    if _introspects_frames(module):
        for scope in builder.result.scopes:
            scope.dynamic = True
    result = builder.result
    module_scope = result.module_scope

    # Pass 1: create a variable for every binding occurrence in the scope that owns it.
    for occurrence in builder.occurrences:
        if occurrence.binding_kind in ("", "declare"):
            continue
        owner = _binding_scope(occurrence.scope, occurrence.name, module_scope)
        if owner is None:
            continue
        variable = owner.bound.get(occurrence.name)
        if variable is None:
            variable = Variable(occurrence.name, owner)
            owner.bound[occurrence.name] = variable
            if owner.kind == ScopeKind.CLASS:
                result.class_bound_names.add(occurrence.name)
        variable.binding_kinds.add(occurrence.binding_kind)

    # Pass 2: resolve every occurrence, in source order, to its variable.
    resolved: list[Variable | None] = []
    for occurrence in builder.occurrences:
        variable = _resolve(occurrence.name, occurrence.scope, module_scope)
        resolved.append(variable)
        result.scope_of[id(occurrence.node)] = occurrence.scope
        if occurrence.binding_kind:
            result.binding_nodes.add(id(occurrence.node))
        if variable is None:
            _note_dynamic_access(occurrence.name, occurrence.scope, module_scope)
            continue
        if not variable.occurrences:
            result.variables.append(variable)
        variable.occurrences.append(occurrence.node)
        result.variable_of[id(occurrence.node)] = variable
        param = builder.param_nodes.get(id(occurrence.node))
        if param is not None:
            info, kind = param
            info.params[variable.name] = variable
            variable.param_of, variable.param_kind = info, kind
        info = builder.def_name_nodes.get(id(occurrence.node))
        if info is not None and variable.binding_kinds == {"def"}:
            info.name_variable = variable

    # Code that reads names through strings sees its own scope, its free variables and the globals.
    for occurrence, variable in zip(builder.occurrences, resolved, strict=True):
        if variable is not None and (occurrence.scope.dynamic or id(occurrence.node) in builder.printed):
            result.read_by_name.add(id(variable))
    _resolve_calls(builder)
    return result


def _resolve(name: str, scope: Scope, module_scope: Scope) -> Variable | None:
    if name in scope.declared_global:
        return module_scope.bound.get(name)
    if name in scope.declared_nonlocal:
        owner = _enclosing_function_binding(scope.parent, name, module_scope)
        return owner.bound.get(name) if owner is not None else None
    if name in scope.bound:
        return scope.bound[name]
    owner = _enclosing_function_binding(scope.parent, name, module_scope) or module_scope
    return owner.bound.get(name)


def _note_dynamic_access(name: str, scope: Scope, module_scope: Scope) -> None:
    if name in _DYNAMIC_LOCALS:
        scope.dynamic = True
    if name in _DYNAMIC_GLOBALS:
        module_scope.dynamic = True


def _known_callers(info: FunctionInfo, builder: _Builder) -> bool:
    """True when the function is a plain def whose every use is a direct call we can see."""
    variable = info.name_variable
    if variable is None or variable.scope.kind == ScopeKind.CLASS or id(info.node.name) in builder.decorated:
        return False
    defs = [n for n in variable.occurrences if id(n) in builder.def_name_nodes]
    if len(defs) != 1:
        return False
    return all(id(n) in builder.call_funcs for n in variable.occurrences if n is not defs[0])


def _resolve_calls(builder: _Builder) -> None:
    result = builder.result
    callee_of: dict[int, FunctionInfo] = {}
    for info in result.functions:
        if isinstance(info.node, cst.FunctionDef) and _known_callers(info, builder):
            result.known_callers.add(id(info))
            for occurrence in info.name_variable.occurrences:
                callee_of[id(occurrence)] = info
    for call in builder.calls:
        callee = callee_of.get(id(call.func_name)) if call.func_name is not None else None
        if callee is None:
            result.unresolved_keywords.update(identifier(k.value) for k in call.keywords)
            result.unresolved_double_star |= call.double_star
            continue
        callee.called_with_double_star |= call.double_star
        for keyword_name in call.keywords:
            param = callee.params.get(identifier(keyword_name.value))
            if param is not None:
                result.variable_of[id(keyword_name)] = param


def _decide_freezes(analysis: ScopeAnalysis, interface: Interface) -> None:
    external = {call.function: call for call in interface.external_calls}
    for variable in analysis.variables:
        variable.frozen_reason = _frozen_reason(variable, analysis, interface, external)


def _frozen_reason(variable: Variable, analysis: ScopeAnalysis, interface: Interface, external) -> str:
    name, scope = variable.name, variable.scope
    if name.startswith("__") and name.endswith("__"):
        return "dunder name"
    if variable.binding_kinds & {"import", "def", "class"}:
        return "import, def or class name"
    if scope.kind == ScopeKind.CLASS:
        return "class attribute"
    if analysis.star_import:
        return "star import or unmodelled syntax"
    if scope.dynamic or id(variable) in analysis.read_by_name or (
        scope is analysis.module_scope and analysis.module_scope.dynamic
    ):
        return "read by name (eval/exec/locals/vars/dir/globals) or printed by f\"{name=}\""
    if scope is analysis.module_scope and interface.module_names_public:
        return "module-level name visible to importers"
    if scope is analysis.module_scope and name in interface.read_from_outside:
        return "module-level name the benchmark's call reads"
    if scope is analysis.module_scope and name in BUILTIN_NAMES:
        # Global lookups fall back to builtins at run time: `input = input()` reads the builtin.
        return "module-level name that shadows a builtin"
    if name in analysis.class_bound_names:
        return "name also bound in a class body"
    if variable.param_of is None or variable.param_kind in ("positional_only", "star", "double_star"):
        return ""
    return _param_frozen_reason(variable.param_of, name, analysis, interface, external)


def _param_frozen_reason(info: FunctionInfo, name: str, analysis: ScopeAnalysis, interface, external) -> str:
    """A parameter may be renamed only if every call that can name it by keyword is rewritten."""
    known = id(info) in analysis.known_callers
    function_name = info.name_variable.name if info.name_variable is not None else None
    top_level = info.scope.parent is analysis.module_scope and isinstance(info.node, cst.FunctionDef)
    called_from_outside = known and top_level and function_name in external
    if called_from_outside and external[function_name].double_star:
        return "parameter passed through **kwargs by the benchmark's call"
    if not called_from_outside and interface.unknown_callers and (top_level or not known):
        return "parameter of a function callable from outside the program"
    if known:
        return "parameter passed through **kwargs" if info.called_with_double_star else ""
    if analysis.unresolved_double_star:
        return "parameter may be passed through **kwargs"
    if name in analysis.unresolved_keywords:
        return "keyword argument of a call that may reach this function"
    return ""
