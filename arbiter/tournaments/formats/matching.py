"""A maximum-weight matching of a general graph: networkx's ``max_weight_matching``
(Edmonds' blossom algorithm, exact with integer weights of any size)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def best_matching(vertices: Iterable[int], weights: Mapping[tuple[int, int], int]) -> dict:
    """{vertex: its mate} for a matching of the greatest total weight (not necessarily
    of the most edges); edges of weight 0 or less are absent. Unmatched vertices are not
    keys."""
    import networkx as nx  # noqa: PLC0415 - networkx takes about a second to import

    graph = nx.Graph()
    graph.add_nodes_from(vertices)
    graph.add_weighted_edges_from((a, b, w) for (a, b), w in weights.items() if w > 0)
    mate = {}
    for a, b in nx.max_weight_matching(graph):
        mate[a], mate[b] = b, a
    return mate
