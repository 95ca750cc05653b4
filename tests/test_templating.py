"""Discussion templates: the filters, strict undefined names, one formatting pass."""

from __future__ import annotations

import jinja2
import pytest

from workbench import templating
from workbench.studies.facts import SeedCount


def test_number_filters():
    assert templating.pts(0.4213) == "42.1"
    assert templating.pts(None) == "n/a"
    assert templating.pts(float("nan")) == "n/a"
    assert templating.dpts(-0.012) == "-1.2"
    assert templating.dpts(0.03) == "+3.0"
    assert templating.pvalue(0.0004) == "< 0.001"
    assert templating.pvalue(0.0312) == "0.031"
    assert templating.pvalue(None) == "n/a"
    assert templating.mpts([0.42, 0.44]) == "43.0 ± 1.4"
    assert templating.mpts({"0": 0.42}) == "42.0"
    assert templating.mpts([None, None]) == "n/a"
    assert templating.mdpts([0.01, 0.03]) == "+2.0 ± 1.4"
    assert templating.num(1234.5678) == "1.23e+03"
    assert templating.num(0.5, 2) == "0.5"


def test_word_filters():
    assert templating.count(3, 11) == "3 of 11"
    assert templating.plural(1, "set") == "1 set"
    assert templating.plural(2, "set") == "2 sets"
    assert templating.plural(2, "analysis", "analyses") == "2 analyses"
    assert templating.join_and(["a", "b", "c"]) == "a, b and c"
    assert templating.join_and(["a"]) == "a"
    assert templating.join_and([]) == ""
    assert templating.seeds_phrase(SeedCount(3, 3)) == "in every seed"
    assert templating.seeds_phrase(SeedCount(0, 3)) == "in no seed"
    assert templating.seeds_phrase(SeedCount(2, 3)) == "in 2 of 3 seeds"
    assert templating.seeds_phrase(SeedCount(1, 1)) == ""
    assert templating.seeds_phrase((1, 2)) == "in 1 of 2 seeds"


def test_filters_refuse_values_that_are_not_numbers():
    with pytest.raises(TypeError, match="pts needs a number"):
        templating.pts("0.4")
    with pytest.raises(ValueError, match="p-value in \\[0, 1\\]"):
        templating.pvalue(1.5)


def test_render_fills_a_template_once(tmp_path):
    (tmp_path / "t.md.j2").write_text(
        "* Score {{ r.score | pts }} {{ facts.seeds | seeds }}; braces {x} stay.\n\n\n"
        "{% if facts.big %}\n* Big.\n{% endif %}\n"
    )
    text = templating.render_text(
        tmp_path, "t.md.j2", r={"score": 0.5}, facts={"seeds": SeedCount(2, 2), "big": False}
    )
    assert text == "* Score 50.0 in every seed; braces {x} stay.\n"
    md = templating.render(tmp_path, "t.md.j2", r={"score": 0.5},
                           facts={"seeds": SeedCount(2, 2), "big": True})  # fmt: skip
    assert "* Big." in md.data


def test_render_refuses_an_undefined_name(tmp_path):
    (tmp_path / "t.md.j2").write_text("{{ r.missing | pts }}")
    with pytest.raises(jinja2.UndefinedError, match="missing"):
        templating.render_text(tmp_path, "t.md.j2", r={})


def test_render_names_a_missing_template(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.md.j2"):
        templating.render_text(tmp_path, "nope.md.j2")
