"""Shared machinery of the VarNorm operators: give every renamable variable a new name."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from mutators.base import StepContext
from mutators.names import NamePool
from mutators.scopes import Variable, analyze
from mutators.tree import transform


class RenameNames(cst.CSTTransformer):
    """Respells the Name nodes listed by identity; every other node is left as it is."""

    def __init__(self, new_names: dict[int, str]) -> None:
        super().__init__()
        self.new_names = new_names

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        new = self.new_names.get(id(original_node))
        return updated_node if new is None else updated_node.with_changes(value=new)


def rename_variables(
    module: cst.Module, context: StepContext, new_name: Callable[[NamePool, Variable], str]
) -> tuple[cst.Module, int]:
    analysis = analyze(module)
    variables = analysis.renamable(context.interface)
    if not variables:
        return module, 0
    pool = NamePool(analysis.all_identifiers)
    name_of = {id(variable): new_name(pool, variable) for variable in variables}
    new_names = {
        node_id: name_of[id(variable)]
        for node_id, variable in analysis.variable_of.items()
        if id(variable) in name_of
    }
    for call in context.interface.external_calls:
        for variable in variables:
            info = variable.param_of
            if (
                info is not None
                and info.name_variable is not None
                and info.name_variable.name == call.function
                and info.name_variable.scope is analysis.module_scope
                and variable.name in call.keywords
            ):
                context.keyword_renames.setdefault(call.function, {})[variable.name] = name_of[id(variable)]
    return transform(module, RenameNames(new_names)), len(variables)
