"""Multi-label datasets: download, Mulan ARFF/XML parsing, container, statistics.

- :func:`download`, :func:`resolve_url` -- checksummed, retried downloads,
  optionally from a mirror of the public Mulan repository.
- :func:`read_datasets_table` -- the validated datasets table
  (:class:`DatasetSpec` per row).
- :func:`load_mulan`, :func:`parse_label_xml` -- ARFF (dense or sparse) plus
  label XML into a :class:`Dataset`.
- :func:`load_mldr` -- an ``mldr`` object of an R data file (``.rda``);
  :func:`load_dataset` reads either format, told by the file's suffix.
- :func:`dataset_statistics` -- instances, features, labels, cardinality,
  density and distinct labelsets.
"""

from mlfsbench.data.arff import DataFormatError
from mlfsbench.data.dataset import Dataset
from mlfsbench.data.download import PUBLIC_BASE, DownloadError, download, resolve_url
from mlfsbench.data.labels import parse_label_xml
from mlfsbench.data.mulan import load_mulan
from mlfsbench.data.rdata import load_dataset, load_mldr
from mlfsbench.data.stats import dataset_statistics
from mlfsbench.data.table import DatasetSpec, read_datasets_table

__all__ = [
    "PUBLIC_BASE",
    "DataFormatError",
    "Dataset",
    "DatasetSpec",
    "DownloadError",
    "dataset_statistics",
    "download",
    "load_dataset",
    "load_mldr",
    "load_mulan",
    "parse_label_xml",
    "read_datasets_table",
    "resolve_url",
]
