"""run.loader imports claim files by path: two files with the same stem in two folders both load, a folder is
searched recursively, and a file that does not import is an input error naming the file."""
import textwrap

import pytest

from attncheck.core.claims import REGISTRY
from attncheck.run import loader

CLAIM = '''
    from hypothesis import strategies as st
    from attncheck import claim, ge

    @claim("{cid}", kind="inequality", statement="x^2 \\\\ge 0", source="test", domain=st.floats(-1, 1))
    def f(x, xp):
        return ge(xp.asarray(x) ** 2, 0.0, xp)
    '''


def test_equal_stems_in_two_folders_both_load(tmp_path):
    for folder, cid in (("one", "stems/one/main"), ("two/deeper", "stems/two/main")):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "test_claims.py").write_text(textwrap.dedent(CLAIM.format(cid=cid)))
    claims = loader.load([tmp_path])
    assert [c.id for c in claims] == ["stems/one/main", "stems/two/main"]
    assert loader.module_name(tmp_path / "one" / "test_claims.py") != \
        loader.module_name(tmp_path / "two" / "deeper" / "test_claims.py")
    assert "stems/one/main" in REGISTRY and "stems/two/main" in REGISTRY


def test_a_file_that_does_not_import_names_itself(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import no_such_module_anywhere\n")
    with pytest.raises(loader.LoadError, match="bad.py: ModuleNotFoundError"):
        loader.load([bad])
    with pytest.raises(loader.LoadError, match="no such claims file or folder"):
        loader.load([tmp_path / "missing.py"])
