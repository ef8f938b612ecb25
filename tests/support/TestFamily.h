#pragma once

// An encoding family as the tests see it (docs/ARCHITECTURE.md, Tests): what the product's
// descriptor already says (its word, its rows), filled from Families::spec, and what only the
// tests know, written in the family's own file tests/families/<family>/<Name>TestFamily.cpp and
// registered there by POSENC_TEST_FAMILY: its parameters for drawing its figures, a change of each
// of its parameter rows, the settings a shared test tries, the axis labels its figures must show,
// and its tables' float64 references (wrapping tests/support/<Family>Reference.h). The shared tests
// iterate TestFamilies::all() and name no family; adding a family adds its folder and edits none.
#include "core/FamilySpec.h"
#include "core/Params.h"
#include "core/Quantity.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <utility>

// Parameters as the command line and sessions write them: ("head-dim", "8") after ("encoding",
// "rope"), applied in order by ParamText::set.
using TestSetting = QList<std::pair<QString, QString>>;

// A cell a reference expects: its float64 value and how far the product's float32 cell may lie
// from it (0 for an exact one; an infinite value is compared as it is).
struct ReferenceCell
{
    double value = 0.0;
    double allowance = 0.0;
};

// A float64 reference of one of the family's tables: quantity `quantity` under `setting` (over
// d_model `dModel` and max_len `maxLen`), every cell of it (row, column) as `cell` computes it.
struct TestReference
{
    QString name;
    posenc::Quantity quantity = posenc::Quantity::Pe;
    std::int64_t dModel = 16;
    std::int64_t maxLen = 24;
    TestSetting setting;
    std::function<ReferenceCell(const posenc::Params &, std::int64_t row, std::int64_t column)> cell;
};

// A table `posenc table` writes and `posenc check` must identify again from its cells alone, with
// its family declared (tst_tableroundtrip): `quantity` under `params`, or, where
// `unknownBecause` is given, a table the check cannot tell, its report saying that.
struct TestRoundTrip
{
    QString name;
    posenc::Params params;
    QString quantity;
    QString unknownBecause; // empty: identified
};

struct TestFamily
{
    // From the product's descriptor (TestFamilies fills them).
    posenc::Encoding encoding = {};
    QString word; // --encoding's word
    QStringList rowKeys; // its rows of the parameter table, in their order

    // From the family's test file.
    // `p` under the family, set so that every figure of the family alone is drawn in full (a head
    // past the power of two, a scaling whose bands show); empty for a family whose figures the tests'
    // own parameters draw. `figureFlags` are the same on the command line after --encoding word,
    // for a table of `maxLen` positions and d_model >= 64.
    std::function<posenc::Params(posenc::Params)> figureParams;
    std::function<QStringList(std::int64_t maxLen)> figureFlags;
    // A text of each of its rows other than the one every setting starts from (a row without one is
    // a table read from a file).
    TestSetting changes;
    // Settings of the family at a small size (d_model 12, max_len 16) where its rows start to
    // matter, named: the first is the family at its plainest.
    QList<std::pair<QString, TestSetting>> settings;
    // Its tables against float64 formulas.
    QList<TestReference> references;
    // Its tables over its rows' corners that the check must identify again; `longMode` adds the
    // long sizes (POSENC_ROUNDTRIP_LONG).
    std::function<QList<TestRoundTrip>(bool longMode)> roundTrips;
};

namespace TestFamilies {

// Every family of the product, in FamilyList.h's order, each with its test record. A family
// without one stops the test at once, naming the file to write.
const QList<TestFamily> &all();
const TestFamily &of(posenc::Encoding encoding);

// `p` set as `family`'s figures are drawn: its figureParams, or `p` itself.
posenc::Params forFamilies(const QList<posenc::Encoding> &families, posenc::Params p);
// The command line of a figure of `families` (after any other flags): --encoding and the family's
// figureFlags, or nothing when the tests' own parameters draw it.
QStringList flagsForFamilies(const QList<posenc::Encoding> &families, std::int64_t maxLen);

// `p` with `setting` applied, stopping the test on a text the parameters refuse.
posenc::Params applied(posenc::Params p, const TestSetting &setting);

// For POSENC_TEST_FAMILY.
bool add(posenc::Encoding encoding, TestFamily (*make)());

} // namespace TestFamilies

// Registers the family `Name` (its Encoding value's name) with the body that follows, which
// returns its TestFamily: POSENC_TEST_FAMILY(Name) { TestFamily f; ...; return f; }
#define POSENC_TEST_FAMILY(Name)                                                                                       \
    static TestFamily makeTest##Name##Family();                                                                        \
    [[maybe_unused]] static const bool registeredTest##Name##Family                                                    \
        = TestFamilies::add(posenc::Encoding::Name, &makeTest##Name##Family);                                          \
    static TestFamily makeTest##Name##Family()
