"""The Markdown reproduction report: every reproduced table beside the paper's values.

The document opens with what it is and the scale of the run (approximation samples,
repetitions, reference draws, ...), then holds one section per reproduced table of the
paper (e.g. Yu et al. (2024), Tables 1, 2, 4 and 6, each rendered by
:func:`geobayes.report.comparison.comparison_markdown`), and closes with the list of
deliberate deviations from the paper's protocol. The output is deterministic (no dates,
no machine names): the same results give the same bytes.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Mapping, Sequence

__all__ = ["ReportSection", "reproduction_report_markdown"]


@dataclasses.dataclass(frozen=True)
class ReportSection:
    """One reproduced table of the report.

    Attributes
    ----------
    title : str
        Section heading, e.g. ``"Table 1: banana"``.
    description : str
        A short paragraph: what the table shows and how it was produced (may be empty).
    body : str
        Markdown body, typically :func:`geobayes.report.comparison.comparison_markdown`.

    Raises
    ------
    ValueError
        If ``title`` or ``body`` is empty or not a string, or ``description`` is not a string.
    """

    title: str
    description: str
    body: str

    def __post_init__(self) -> None:
        for name in ("title", "body"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"ReportSection.{name} must be a non-empty string; got {value!r}")
        if not isinstance(self.description, str):
            raise ValueError(f"ReportSection.description must be a string; got {self.description!r}")
        if "\n" in self.title.strip():
            raise ValueError(f"ReportSection.title must be one line; got {self.title!r}")


def _cell(text: str) -> str:
    return text.strip().replace("|", "\\|").replace("\n", " ")


def _format_scale_value(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}"
    if isinstance(value, numbers.Real):
        value = float(value)
        return f"{value:g}" if math.isfinite(value) else str(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(_format_scale_value(item) for item in value)
    return str(value)


def reproduction_report_markdown(
    sections: Sequence[ReportSection],
    *,
    paper_citation: str,
    deviations: Sequence[str],
    scale: Mapping[str, object],
    title: str = "Reproduction report",
) -> str:
    """Assemble the Markdown reproduction report.

    Parameters
    ----------
    sections : sequence of ReportSection
        One per reproduced table, in the order they should appear.
    paper_citation : str
        The reproduced paper, e.g. ``'Yu, Hartmann, Williams, Girolami, Klami, "Riemannian
        Laplace Approximation with the Fisher Metric", AISTATS 2024'``.
    deviations : sequence of str
        Deliberate deviations from the paper's protocol, one sentence each (may be empty:
        the list then reads "None.").
    scale : mapping of str to object
        Run scale, in display order, e.g. ``{"approximation samples per run": 10000,
        "repetitions": 5, "reference draws": 20000}``; integers get thousands separators,
        lists are joined with commas.
    title : str, optional
        Top-level heading.

    Returns
    -------
    str
        The document, ending with a newline: a ``#`` title, an opening paragraph naming
        the paper, a "Run scale" table, one ``##`` section per table (title, description,
        body) and a "Deliberate deviations" list.

    Raises
    ------
    ValueError
        If ``sections`` is empty or holds something other than :class:`ReportSection`,
        two sections share a title, ``paper_citation`` or ``title`` is empty, ``scale`` is
        empty or has a non-string or empty key, or a deviation is not a non-empty string.
    """
    sections = list(sections)
    if not sections:
        raise ValueError("sections must hold at least one ReportSection")
    wrong = [type(section).__name__ for section in sections if not isinstance(section, ReportSection)]
    if wrong:
        raise ValueError(f"sections must be ReportSection objects; got {wrong}")
    titles = [section.title.strip() for section in sections]
    repeated = sorted({t for t in titles if titles.count(t) > 1})
    if repeated:
        raise ValueError(f"section titles must be unique; repeated: {repeated}")
    for name, value in (("paper_citation", paper_citation), ("title", title)):
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{name} must be a non-empty string; got {value!r}")
    if isinstance(deviations, str):
        raise ValueError("deviations must be a sequence of strings, not one string")
    deviations = list(deviations)
    bad = [d for d in deviations if not isinstance(d, str) or not d.strip()]
    if bad:
        raise ValueError(f"every deviation must be a non-empty string; got {bad}")
    if not isinstance(scale, Mapping) or not scale:
        raise ValueError("scale must be a non-empty mapping of setting -> value (samples, repetitions, ...)")
    bad_keys = [key for key in scale if not isinstance(key, str) or not key.strip()]
    if bad_keys:
        raise ValueError(f"scale keys must be non-empty strings; got {bad_keys}")

    lines = [
        f"# {title.strip()}",
        "",
        f"This report compares our reproduction with the published results of {paper_citation.strip()}. "
        "Each section below holds one reproduced table: our value (mean ± std over repetitions) beside "
        "the paper's, their difference, and a flag where ours lies outside the paper's spread. "
        "The list of deliberate deviations from the paper's protocol closes the report.",
        "",
        "## Run scale",
        "",
        "| setting | value |",
        "|---|---|",
    ]
    lines += [f"| {_cell(key)} | {_cell(_format_scale_value(value))} |" for key, value in scale.items()]
    lines += ["", "Sections: " + "; ".join(titles) + "."]
    for section in sections:
        lines += ["", f"## {section.title.strip()}", ""]
        if section.description.strip():
            lines += [section.description.strip(), ""]
        lines.append(section.body.strip())
    lines += ["", "## Deliberate deviations", ""]
    lines += [f"- {d.strip()}" for d in deviations] if deviations else ["None."]
    return "\n".join(lines) + "\n"
