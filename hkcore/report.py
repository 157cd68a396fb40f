"""Deprecated: the old home of ``hkcore.reports.comparison`` (the comparison report) and of the page helpers
the reports share, now in ``hkcore.reports.page``; kept for one release so that imports of it still work."""
from __future__ import annotations

import warnings

from hkcore.reports.comparison import markdown, page, write_report
from hkcore.reports.page import (
    CSS,
    INSTALL,
    MissingExtra,
    cell,
    data_attrs,
    md_table,
    pattern_names,
    report_folder,
    require_matplotlib,
    rule_rows,
    rule_table_rows,
    rule_value,
    write_files,
)

warnings.warn("hkcore.report is now hkcore.reports.comparison (its page helpers: hkcore.reports.page)",
              DeprecationWarning, stacklevel=2)

#: the report pages' style sheet (``hkcore.reports.page.CSS``)
PAGE_CSS = CSS

__all__ = ["INSTALL", "PAGE_CSS", "MissingExtra", "cell", "data_attrs", "markdown", "md_table", "page",
           "pattern_names", "report_folder", "require_matplotlib", "rule_rows", "rule_table_rows", "rule_value",
           "write_files", "write_report"]
