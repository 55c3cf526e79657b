"""A generated corpus of bad (and awkward but valid) Mulan inputs.

Each :class:`Case` is a set of files written into a folder, the arguments
that read them (``mlfsbench describe``, ``load_mulan``; ``load_mldr`` for an
R data file) and what must happen: either an error whose one line names the
file and matches ``error``, or the dataset's values (``X``, ``Y``, feature or
label names) and the one warning expected, if any. Written by hand from the
ARFF format and Weka's reading of it; issues 29 and 38 list how each failed.
The R data files are mldr objects as the mldr package saves them
(:func:`mldr_rda`).
"""

from __future__ import annotations

import bz2
import gzip
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

NAN = float("nan")

HEAD = """@relation t
@attribute f1 numeric
@attribute f2 {a,b,c}
@attribute l1 {0,1}
@attribute l2 {0,1}
@data
"""
ROWS = "1.5,a,1,0\n2.5,b,0,1\n3.5,a,1,1\n"
XML = '<labels><label name="l1"/><label name="l2"/></labels>'
GOOD_X = [[1.5, 1, 0, 0], [2.5, 0, 1, 0], [3.5, 1, 0, 0]]
GOOD_Y = [[1, 0], [0, 1], [1, 1]]
NAMES = ["f1", "f2=a", "f2=b", "f2=c"]


@dataclass
class Case:
    """One input: ``files`` (name -> text or bytes) and the expected outcome.

    ``arff`` names the ARFF file(s) given to the reader, ``xml`` the label
    file (``None``: no ``--xml``). ``error`` is a regular expression the
    message must match after the file's name; otherwise ``X``/``Y`` (and
    ``features``/``labels`` when set) are the loaded values and ``warning``
    a regular expression the one warning must match (``None``: no warning).
    ``cli_error``: the commands' error (``describe``, ``select``) for a file
    the loader reads (its values are then ``X``/``Y``).
    """

    id: str
    files: dict[str, str | bytes]
    arff: tuple[str, ...] = ("t.arff",)
    xml: str | None = "t.xml"
    error: str | None = None
    X: Any = None
    Y: Any = None
    features: list[str] | None = None
    labels: list[str] | None = None
    warning: str | None = None
    extra: list[str] = field(default_factory=list)
    cli_error: str | None = None

    def write(self, folder: Path) -> tuple[list[Path], Path | None]:
        """Write the files; return the ARFF path(s) and the XML path."""
        for name, content in self.files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, str):
                content = content.encode("utf-8")
            path.write_bytes(content)
        return ([folder / a for a in self.arff],
                folder / self.xml if self.xml else None)


def _arff(text: str | bytes, name: str = "t.arff", xml: str | None = XML) -> dict:
    files: dict[str, str | bytes] = {name: text}
    if xml is not None:
        files["t.xml"] = xml
    return files


def good(id: str, text: str, *, X=None, Y=None, name="t.arff", xml=XML,
         raw: bytes | None = None, **kw) -> Case:
    files = _arff(text, name, xml)
    if raw is not None:
        files[name] = raw
    return Case(id, files, arff=(name,), xml="t.xml" if xml else None,
                X=GOOD_X if X is None else X, Y=GOOD_Y if Y is None else Y, **kw)


def bad(id: str, text: str | bytes, error: str, *, name="t.arff", xml=XML,
        **kw) -> Case:
    return Case(id, _arff(text, name, xml), arff=(name,),
                xml="t.xml" if xml else None, error=error, **kw)


def _gz(text: str, encoding: str = "utf-8") -> bytes:
    return gzip.compress(text.encode(encoding), mtime=0)


def _bz2(text: str, encoding: str = "utf-8") -> bytes:
    return bz2.compress(text.encode(encoding))


class _Mldr:
    """The parts of an R list of class ``mldr``, for :func:`mldr_rda`."""

    def __init__(self, **parts: Any):
        self.parts = parts


def _mldr_object(obj: _Mldr, converter) -> Any:
    from rdata.conversion.to_r import build_r_object
    from rdata.parser import RObjectType

    values = [converter.convert_to_r_object(v) for v in obj.parts.values()]
    attributes = converter.convert_to_r_attributes(
        {"names": np.array(list(obj.parts), dtype="U"), "class": "mldr"})
    return build_r_object(RObjectType.VEC, value=values, is_object=True,
                          attributes=attributes)


def mldr_rda(features: dict[str, list[float]], labels: dict[str, list[int]],
             name: str = "t") -> bytes:
    """The bytes of an R data file holding one mldr object ``name``: a
    ``dataset`` frame of the features then the labels, its ``labels`` frame
    (their 1-based ``index``) and ``attributesIndexes``, as the mldr package
    saves them (``fcharte/mldr.datasets``)."""
    import rdata
    from rdata.conversion.to_r import DEFAULT_CLASS_MAP

    frame = pd.DataFrame({**features, **{k: np.asarray(v, dtype=float)
                                         for k, v in labels.items()}})
    d = len(features)
    obj = _Mldr(
        dataset=frame,
        labels=pd.DataFrame({"index": np.arange(d + 1, d + len(labels) + 1)},
                            index=pd.Index(list(labels), dtype=object)),
        attributesIndexes=np.arange(1, d + 1))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.rda"
        rdata.write_rda(path, {name: obj}, constructor_dict={
            **DEFAULT_CLASS_MAP, _Mldr: _mldr_object})
        return path.read_bytes()


def rda(id: str, columns: dict[str, list[float]], *, error: str | None = None,
        **kw) -> Case:
    """A case of an R data file ``t.rda``: feature ``columns`` and the labels
    of :data:`GOOD_Y`."""
    files: dict[str, str | bytes] = {"t.rda": mldr_rda(
        columns, {"l1": [1, 0, 1], "l2": [0, 1, 1]})}
    if error is not None:
        return Case(id, files, arff=("t.rda",), xml=None, error=error)
    return Case(id, files, arff=("t.rda",), xml=None, Y=GOOD_Y,
                X=np.column_stack(list(columns.values())).tolist(), **kw)


INT_HEAD = HEAD.replace("f1 numeric", "f1 integer")
INT_LABEL = HEAD.replace("l2 {0,1}", "l2 integer")
LATIN = HEAD.replace("f1 numeric", "'caf\u00e9' numeric")
SPARSE_HEAD = HEAD.replace("f2 {a,b,c}", "f2 numeric")
SPARSE_X = [[1.5, 0], [0, 2.0], [0, 0]]
MEKA = ("@relation 'm: -C 2'\n@attribute l1 {0,1}\n@attribute l2 {0,1}\n"
        "@attribute f1 numeric\n@data\n1,0,1.5\n0,1,2.5\n1,1,3.5\n")

ONLY_LABELS = ("@relation t\n@attribute l1 {0,1}\n@attribute l2 {0,1}\n@data\n"
               "1,0\n0,1\n1,1\n")

CASES: list[Case] = [
    # ------------------------------------------------ read correctly
    good("plain", HEAD + ROWS, features=NAMES, labels=["l1", "l2"]),
    good("integer-feature-keeps-reals", INT_HEAD + ROWS),
    good("integer-feature-uppercase", HEAD.replace("f1 numeric", "f1 INTEGER")
         + ROWS),
    good("integer-feature-trailing-blanks", HEAD.replace("f1 numeric",
                                                         "f1 integer   ") + ROWS),
    good("integer-label-zero-one", INT_LABEL + ROWS),
    good("real-type", HEAD.replace("f1 numeric", "f1 real") + ROWS),
    good("attribute-named-integer", HEAD.replace("f1 numeric", "integer numeric")
         + ROWS, features=["integer", "f2=a", "f2=b", "f2=c"]),
    good("byte-order-mark", "\ufeff" + HEAD + ROWS),
    good("latin-1", "", raw=(LATIN + ROWS).encode("latin-1"),
         features=["caf\u00e9", "f2=a", "f2=b", "f2=c"]),
    good("utf-8-name", LATIN + ROWS, features=["caf\u00e9", "f2=a", "f2=b", "f2=c"]),
    good("gzip", "", name="t.arff.gz", raw=_gz(HEAD + ROWS)),
    good("bzip2", "", name="t.arff.bz2", raw=_bz2(HEAD + ROWS)),
    good("gzip-by-content", "", raw=_gz(HEAD + ROWS)),
    good("bzip2-by-content", "", raw=_bz2(HEAD + ROWS)),
    good("gzip-latin-1", "", name="t.arff.gz", raw=_gz(LATIN + ROWS, "latin-1"),
         features=["caf\u00e9", "f2=a", "f2=b", "f2=c"]),
    good("gzip-byte-order-mark", "", name="t.arff.gz", raw=_gz("\ufeff" + HEAD + ROWS)),
    good("crlf", (HEAD + ROWS).replace("\n", "\r\n")),
    good("lone-cr", (HEAD + ROWS).replace("\n", "\r")),
    good("comments-in-data", HEAD + "% one\n1.5,a,1,0\n%two\n2.5,b,0,1\n3.5,a,1,1\n"),
    good("blank-lines-in-data", HEAD + "\n1.5,a,1,0\n\n\n2.5,b,0,1\n3.5,a,1,1\n\n"),
    good("missing-feature", HEAD + "?,a,1,0\n2.5,?,0,1\n3.5,a,1,1\n",
         X=[[NAN, 1, 0, 0], [2.5, NAN, NAN, NAN], [3.5, 1, 0, 0]]),
    good("missing-with-nan-in-a-name",
         HEAD.replace("f1 numeric", "financial numeric") + "?,a,1,0\n"
         "2.5,b,0,1\n3.5,a,1,1\n", X=[[NAN, 1, 0, 0], [2.5, 0, 1, 0], [3.5, 1, 0, 0]]),
    good("nominal-value-named-nan", HEAD.replace("{a,b,c}", "{nan,b,c}")
         + "1.5,nan,1,0\n2.5,b,0,1\n3.5,nan,1,1\n",
         features=["f1", "f2=nan", "f2=b", "f2=c"],
         X=[[1.5, 1, 0, 0], [2.5, 0, 1, 0], [3.5, 1, 0, 0]]),
    good("quoted-nominal-nan-beside-missing", HEAD.replace("{a,b,c}", "{'nan',b,c}")
         + "?,'nan',1,0\n2.5,b,0,1\n3.5,'nan',1,1\n",
         features=["f1", "f2=nan", "f2=b", "f2=c"],
         X=[[NAN, 1, 0, 0], [2.5, 0, 1, 0], [3.5, 1, 0, 0]]),
    good("scientific-notation", HEAD + "15e-1,a,1,0\n0.25E1,b,0,1\n3.5,a,1,1\n"),
    good("negative-and-zero", HEAD + "-1.5,a,1,0\n0,b,0,1\n3.5,a,1,1\n",
         X=[[-1.5, 1, 0, 0], [0, 0, 1, 0], [3.5, 1, 0, 0]]),
    good("quoted-names", HEAD.replace("f1 numeric", "'f one' numeric")
         .replace("l1 {0,1}", "'label one' {0,1}") + ROWS,
         xml='<labels><label name="label one"/><label name="l2"/></labels>',
         features=["f one", "f2=a", "f2=b", "f2=c"], labels=["label one", "l2"]),
    good("labels-no-yes", HEAD.replace("l1 {0,1}", "l1 {NO,YES}")
         + "1.5,a,YES,0\n2.5,b,NO,1\n3.5,a,YES,1\n"),
    good("xml-order", HEAD + ROWS, Y=[[0, 1], [1, 0], [1, 1]],
         xml='<labels><label name="l2"/><label name="l1"/></labels>',
         labels=["l2", "l1"]),
    good("xml-namespace", HEAD + ROWS,
         xml='<labels xmlns="http://mulan.sourceforge.net/labels">'
             '<label name="l1"/><label name="l2"/></labels>'),
    good("xml-byte-order-mark", HEAD + ROWS, xml="\ufeff" + XML),
    good("sparse", SPARSE_HEAD + "{0 1.5,2 1}\n{1 2,3 1}\n{2 1,3 1}\n",
         X=SPARSE_X),
    good("sparse-empty-row", SPARSE_HEAD + "{0 1.5,2 1}\n{1 2,3 1}\n{}\n",
         X=SPARSE_X, Y=[[1, 0], [0, 1], [0, 0]]),
    good("meka-no-xml", MEKA, xml=None, X=[[1.5], [2.5], [3.5]]),
    good("meka-bzip2", "", name="m.arff.bz2", raw=_bz2(MEKA), xml=None,
         X=[[1.5], [2.5], [3.5]]),
    good("single-instance", HEAD + "1.5,a,1,0\n", X=[[1.5, 1, 0, 0]], Y=[[1, 0]]),
    good("constant-label", HEAD + "1.5,a,1,0\n2.5,b,1,1\n3.5,a,1,1\n",
         Y=[[1, 0], [1, 1], [1, 1]]),
    # issue 38, V1: names are case-sensitive (Weka, Mulan); slashdot has the
    # word feature apple and the category Apple
    good("feature-named-like-a-label-up-to-case",
         HEAD.replace("f1 numeric", "L1 numeric") + ROWS,
         features=["L1", "f2=a", "f2=b", "f2=c"], labels=["l1", "l2"],
         warning=r"feature\(s\) 'L1' \(label 'l1'\) differ from a label of "
                 r".*t\.xml only in case; kept as features"),
    good("word-apple-beside-category-Apple",
         "@relation slashdot\n@attribute apple {0,1}\n@attribute linux {0,1}\n"
         "@attribute Apple {0,1}\n@attribute Linux {0,1}\n@data\n"
         "1,0,0,1\n0,1,1,0\n1,1,1,1\n",
         xml='<labels><label name="Apple"/><label name="Linux"/></labels>',
         X=[[1, 0], [0, 1], [1, 1]], Y=[[0, 1], [1, 0], [1, 1]],
         features=["apple", "linux"], labels=["Apple", "Linux"],
         warning=r"feature\(s\) 'apple' \(label 'Apple'\), 'linux' \(label "
                 r"'Linux'\) differ from a label of .*t\.xml only in case"),
    # issue 38, W5: R data files, read as the ARFF files are
    rda("rda-plain", {"f1": [1.5, 2.5, 3.5], "f2": [0.0, 1.0, -2.0]},
        features=["f1", "f2"], labels=["l1", "l2"]),
    rda("rda-missing-value", {"f1": [1.5, NAN, 3.5]}),
    rda("rda-magnitude-below-the-limit", {"f1": [1e149, -1e149, 0.0]}),
    # read, but the commands refuse it: nothing to select from (issue 38 U6)
    good("no-features", ONLY_LABELS, X=[[], [], []], features=[],
         cli_error=r"no features: its attributes are the 2 labels only"),
    bad("no-features-meka", ONLY_LABELS.replace("@relation t", "@relation 't: -C 2'"),
        r"MEKA option '-C 2' does not fit 2 attributes", xml=None),
    Case("no-features-train-test", {"t-train.arff": ONLY_LABELS,
                                    "t-test.arff": ONLY_LABELS, "t.xml": XML},
         arff=("t-train.arff", "t-test.arff"), X=[[]] * 6, Y=GOOD_Y * 2,
         features=[], cli_error=r"t-train\.arff: no features"),

    # --------------------------------------------- clear errors
    bad("integer-label-0.4", INT_LABEL + "1.5,a,1,0.4\n2.5,b,0,1\n",
        r"label 'l2' has value 0\.4 in instance 1 \(line 7\)"),
    bad("integer-label-1.7", INT_LABEL + "1.5,a,1,0\n2.5,b,0,1.7\n",
        r"label 'l2' has value 1\.7 in instance 2 \(line 8\)"),
    bad("numeric-label-2", HEAD.replace("l2 {0,1}", "l2 numeric")
        + "1.5,a,1,2\n", r"label 'l2' has value 2 in instance 1"),
    bad("nan-in-integer", INT_HEAD + "1.5,a,1,0\nnan,b,0,1\n",
        r"line 8: attribute 'f1' has a NaN \('nan'\)"),
    bad("nan-in-numeric", HEAD + "NaN,a,1,0\n", r"line 7: attribute 'f1' has a NaN"),
    bad("nan-in-integer-label", INT_LABEL + "1.5,a,1,nan\n",
        r"line 7: attribute 'l2' has a NaN"),
    bad("nan-in-sparse", SPARSE_HEAD + "{0 1.5,2 1}\n{0 nan,3 1}\n",
        r"line 8: attribute 'f1' has a NaN"),
    bad("inf-in-numeric", HEAD + "inf,a,1,0\n",
        r"line 7: attribute 'f1' has an infinite value \('inf'\)"),
    bad("minus-infinity-in-integer", INT_HEAD + "1,a,1,0\n-Infinity,b,0,1\n",
        r"line 8: attribute 'f1' has an infinite value \('-Infinity'\)"),
    bad("inf-in-sparse", SPARSE_HEAD + "{0 1.5,2 1}\n{1 inf,3 1}\n",
        r"line 8: attribute 'f2' has an infinite value"),
    bad("huge-overflows-to-inf", HEAD + "1e999,a,1,0\n",
        r"line 7: attribute 'f1' has an infinite value \('1e999'\)"),
    # issue 38, W7: a quoted nan is a written nan, not a "?"
    bad("quoted-nan-in-numeric", HEAD + "1.5,a,1,0\n'nan',b,0,1\n",
        r"line 8: attribute 'f1' has a NaN \('nan'\); write \? for a missing value"),
    bad("double-quoted-nan-in-numeric", HEAD + '"NaN",a,1,0\n',
        r"line 7: attribute 'f1' has a NaN \('NaN'\); write \? for a missing value"),
    bad("quoted-nan-in-integer", INT_HEAD + "1,a,1,0\n2,b,0,1\n' nan ',a,1,1\n",
        r"line 9: attribute 'f1' has a NaN \(' nan '\)"),
    bad("quoted-nan-in-sparse", SPARSE_HEAD + "{0 1.5,2 1}\n{1 'nan',3 1}\n",
        r"line 8: attribute 'f2' has a NaN \('nan'\)"),
    bad("quoted-nan-beside-missing", HEAD + "?,a,1,0\n'nan',b,0,1\n",
        r"line 8: attribute 'f1' has a NaN \('nan'\)"),
    # issue 38, W5: the R data reader applies the ARFF reader's value checks
    rda("rda-inf", {"f1": [1.5, 2.5, 3.5], "f2": [0.0, np.inf, 1.0]},
        error=r"mldr object 't': feature\(s\) 'f2' hold an infinite value "
              r"\(first: inf in instance 2\); write an unknown value as missing"),
    rda("rda-minus-inf", {"f1": [-np.inf, 2.5, 3.5]},
        error=r"mldr object 't': feature\(s\) 'f1' hold an infinite value "
              r"\(first: -inf in instance 1\)"),
    rda("rda-1.7e308", {"f1": [1.5, 2.5, 3.5], "f2": [0.0, 1.0, 1.7e308]},
        error=r"mldr object 't': feature\(s\) 'f2' hold values of magnitude "
              r">= 1e\+150 \(first: 1\.7e\+308 in instance 3\), whose squares"),
    rda("rda-magnitude-at-the-limit", {"f1": [1.5, -1e150, 3.5]},
        error=r"feature\(s\) 'f1' hold values of magnitude >= 1e\+150"),
    bad("empty-data", HEAD, r"no instances"),
    bad("only-comments-in-data", HEAD + "% none\n\n%\n", r"no instances"),
    bad("no-data-section", HEAD.replace("@data\n", ""),
        r"invalid ARFF \(Invalid layout"),
    bad("empty-file", "", r"invalid ARFF \(Invalid layout"),
    bad("blank-file", "\n  \n\n", r"invalid ARFF \(Invalid layout"),
    bad("word-in-integer", INT_HEAD + "1,a,1,0\nhi,b,0,1\n",
        r"invalid ARFF \(Invalid numerical value, at line 8"),
    bad("word-in-numeric", HEAD + "hi,a,1,0\n", r"invalid ARFF.*numerical value"),
    bad("undeclared-nominal", HEAD + "1.5,d,1,0\n",
        r"invalid ARFF \(Data value d not found in nominal declaration, at line 7"),
    bad("too-few-values", HEAD + "1.5,a,1\n",
        r"invalid ARFF \(Bad @DATA instance format in line 7"),
    bad("too-many-values", HEAD + "1.5,a,1,0,9\n",
        r"invalid ARFF \(Bad @DATA instance format in line 7"),
    bad("unknown-type", HEAD.replace("f1 numeric", "f1 date") + ROWS,
        r"invalid ARFF \(Bad @ATTRIBUTE type, at line 2"),
    bad("missing-label", HEAD + "1.5,a,?,0\n", r"label 'l1' is missing in 1"),
    bad("label-lo-hi", HEAD.replace("l1 {0,1}", "l1 {lo,hi}") + "1.5,a,hi,0\n",
        r"label 'l1' is \{lo,hi\}"),
    bad("label-string", HEAD.replace("l1 {0,1}", "l1 string") + "1.5,a,x,0\n",
        r"label 'l1' is string"),
    bad("string-feature", HEAD.replace("f2 {a,b,c}", "f2 string")
        + "1.5,x,1,0\n2.5,x,0,1\n", r"string attribute\(s\) f2 cannot be features"),
    bad("repeated-sparse-index", SPARSE_HEAD + "{0 1,0 2,2 1}\n",
        r"line 7: sparse row gives attribute index\(es\) 0 more than once"),
    bad("sparse-index-out-of-range", SPARSE_HEAD + "{0 1,9 1}\n",
        r"invalid ARFF \(Bad @DATA instance format in line 7"),
    bad("names-equal-after-unescaping",
        HEAD.replace("f1 numeric", "\"x'y\" numeric").replace(
            "f2 {a,b,c}", "'x\\'y' {a,b,c}") + ROWS,
        r"lines 2 and 3 declare the same attribute name"),
    # issue 38, V1: a feature named exactly like a label is two attributes of
    # one name
    bad("feature-named-exactly-like-a-label", HEAD.replace("f1 numeric", "l1 numeric")
        + ROWS, r"invalid ARFF \(Bad @ATTRIBUTE name l1 at line 4, this name is "
                r"already in use in line 2\.\)"),
    bad("no-xml-no-meka", HEAD + ROWS, r"no label XML given", xml=None),
    bad("meka-count-too-large", MEKA.replace("-C 2", "-C 5"), r"does not fit",
        xml=None),
    bad("meka-and-xml-disagree", MEKA.replace("-C 2", "-C 1"),
        r"'-C 1' declares 1 labels but .*t\.xml names 2"),
    bad("truncated-gzip", _gz(HEAD + ROWS)[:25], r"cannot read ARFF file",
        name="t.arff.gz"),
    bad("gz-name-plain-content", HEAD + ROWS, r"cannot read ARFF file",
        name="t.arff.gz"),
    bad("bz2-name-garbage", b"BZh9 not really", r"cannot read ARFF file",
        name="t.arff.bz2"),
    bad("binary-garbage", bytes(range(256)) * 4, r"invalid ARFF"),
    Case("xml-not-well-formed", _arff(HEAD + ROWS, xml="<labels><label"),
         error=r"cannot read label XML", ),
    Case("xml-wrong-root", _arff(HEAD + ROWS, xml="<tags/>"),
         error=r"root element is <tags>, expected <labels>"),
    Case("xml-no-labels", _arff(HEAD + ROWS, xml="<labels/>"),
         error=r"no <label> elements"),
    Case("xml-label-not-in-arff", _arff(
        HEAD + ROWS, xml='<labels><label name="l1"/><label name="zz"/></labels>'),
        error=r"label\(s\) 'zz' named in .* are not attributes"),
    Case("xml-repeated-label", _arff(
        HEAD + ROWS, xml='<labels><label name="l1"/><label name="l1"/></labels>'),
        error=r"repeated label name\(s\) \['l1'\]"),
    Case("no-such-file", {"t.xml": XML}, arff=("nope.arff",),
         error=r"cannot read ARFF file"),
    Case("directory", {"d/t.arff": HEAD + ROWS, "t.xml": XML}, arff=("d",),
         error=r"cannot read ARFF file"),
    Case("train-test-headers-differ", {
        "t-train.arff": HEAD + ROWS,
        "t-test.arff": HEAD.replace("f1 numeric", "g1 numeric") + ROWS,
        "t.xml": XML}, arff=("t-train.arff", "t-test.arff"),
        error=r"attribute 1 \('g1', numeric\) differs"),
    Case("test-file-empty", {"t-train.arff": HEAD + ROWS, "t-test.arff": HEAD,
                             "t.xml": XML},
         arff=("t-train.arff", "t-test.arff"), error=r"no instances"),
    Case("train-test-gzip-and-plain", {
        "t-train.arff.gz": _gz(HEAD + ROWS), "t-test.arff": HEAD + "4.5,a,0,0\n",
        "t.xml": XML}, arff=("t-train.arff.gz", "t-test.arff"),
        X=GOOD_X + [[4.5, 1, 0, 0]], Y=GOOD_Y + [[0, 0]]),
]
