"""MkDocs hooks of the documentation site (mkdocs.yml).

Pages written for the repository link to files beside them there (``docs/architecture.md``
links ``../schemas/format.md``); on the site those files are pages of their own. The links
are mapped here, so the repository's text is shown as it is written.
"""

from __future__ import annotations

from typing import Any

#: A link as a page of the repository writes it -> the site's page, from the docs folder.
REPOSITORY_LINKS = {"../schemas/format.md": "reference/format.md"}


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    depth = page.file.src_uri.count("/")
    for written, page_path in REPOSITORY_LINKS.items():
        markdown = markdown.replace(f"]({written})", f"]({'../' * depth}{page_path})")
    return markdown
