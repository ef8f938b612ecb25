// The learned table's test record (tests/support/TestFamily.h): its table is read from a file, so
// its tests (tst_encodings) write one whose cells say where they are; its figure is drawn from the
// tests' own parameters with their loaded table.
#include "support/TestFamily.h"

using namespace Qt::StringLiterals;

POSENC_TEST_FAMILY(Learned)
{
    TestFamily f;
    f.changes = {{u"position-offset"_s, u"2"_s}};
    f.helpFlags = {u"--position-table FILE[:TENSOR]"_s, u"--position-offset N"_s};
    return f;
}
