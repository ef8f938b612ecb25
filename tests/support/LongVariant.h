#pragma once

// A test's long variant: the costly rows of a test that CI's run of it leaves out, run by hand
// before a release. ctest runs such a test twice (tests/CMakeLists.txt, POSENC_LONG_VARIANTS):
// as itself, the rows CI takes, and as `<test>_long`, labelled `long`, with POSENC_LONG_ROWS=1 in
// its environment, the others. The release test preset leaves the `_long` tests out and
// release-long runs them; under the sanitizers the label does (the asan preset leaves out what is
// labelled `long`, asan-labelled runs it).
#include <QTest>

namespace testing {

// Whether this run is a test's long variant (POSENC_LONG_ROWS set in the environment).
inline bool longVariant()
{
    static const bool variant = qEnvironmentVariableIsSet("POSENC_LONG_ROWS");
    return variant;
}

} // namespace testing

// After the QFETCHes of a test function (or first in a function that is a case of its own): the
// test's own run takes the rows for which `inCi` holds, its long variant the others, so that
// together they run every row once.
#define POSENC_ROWS_IN_CI_WHERE(inCi)                                                                                  \
    do {                                                                                                               \
        if (testing::longVariant() == bool(inCi))                                                                      \
            QSKIP(testing::longVariant() ? "the test's own run (CI's) takes this row"                                  \
                                         : "this row is the test's long variant's (<test>_long), by hand");            \
    } while (false)
