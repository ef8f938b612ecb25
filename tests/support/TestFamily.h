#pragma once

// An encoding family as the tests see it (docs/ARCHITECTURE.md, Tests): what the product's
// descriptor already says (its word, its rows), filled from Families::spec, and what only the
// tests know, written in the family's own file tests/families/<family>/<Name>TestFamily.cpp and
// registered there by POSENC_TEST_FAMILY: its parameters for drawing its figures, a change of each
// of its parameter rows, the settings a shared test tries, the axis labels its figures must show,
// and its tables' float64 references (wrapping tests/support/<Family>Reference.h). The shared tests
// iterate TestFamilies::all() and name no family; adding a family adds its folder and edits none.
#include "core/FamilyCurves.h"
#include "core/FamilySpec.h"
#include "core/ParamUse.h"
#include "core/Params.h"
#include "core/Quantity.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>
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

// A claim of ParamUse::idle (tst_paramuse): under the family's setting named `setting` (one of its
// `settings`), with `more` applied after it, the row `key` is idle for the reason `idle`, or read.
struct TestIdleCase
{
    QString setting;
    TestSetting more;
    QString key;
    std::optional<posenc::ParamUse::Idle> idle; // nothing: read
};

// A command line the program refuses (tst_cliencodings): `posenc table input` and `posenc describe`
// with `arguments` exit 2, the error holding every part of `message`.
struct TestRefusal
{
    QString name;
    QStringList arguments;
    QStringList message;
};

// What the families figure draws in a family's panel for one query, in core's types: its curve
// (a band or steps), or its lines (one per head) with which is emphasised and which named, the
// offsets the pixels hold, and whether the offsets after the query are shaded as masked.
struct TestPanel
{
    posenc::FamilyCurve curve;
    QList<posenc::FamilyCurve> lines;
    QList<bool> emphasised, named;
    bool maskedAfterQuery = false;
    posenc::OffsetPixels pixels;

    // The least and the most of the pixel of `curve` that holds offset k.
    std::pair<double, double> at(std::int64_t k) const;
    // The value of `curve` as a staircase at offset k: the step starting at or before it.
    double stepAt(std::int64_t k) const;
};

// How a shipped preset of the family goes through `posenc table` and `posenc check`
// (tst_clicheckroundtrip).
struct TestPresetTables
{
    // The quantities whose tables `posenc check` must identify as the family's; empty: the
    // quantities of its roundTrips.
    QStringList quantities;
    // The tables' rows are the positions, capped at 4096 in CI; false: a patch grid's rows.
    bool positionRows = true;
    // What `posenc check` is told beside the file, from the preset's name and its "params".
    std::function<QStringList(const QString &preset, const QJsonObject &params)> checkFlags;
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

    // The settings tst_paramuse checks every claim of ParamUse::idle in, over d_model 12, max_len 16
    // and p = 0.4, each where some of its rows start or stop to matter; empty: `settings`.
    QList<std::pair<QString, TestSetting>> idleSettings;
    // Other texts of its rows that tst_paramuse tries, as a change of the control would give them; a
    // row not named here tries its text of `changes` and its default's text (TestFamilies::otherValues).
    QList<std::pair<QString, QStringList>> otherValues;
    // What a change of `key` brings along in the window, applied to `changed` (each family's, to
    // every change): a longrope head of another size comes with factor lists of its length.
    std::function<void(const posenc::Params &before, posenc::Params &changed, const QString &key)> alongside;
    // Whether `a` and `b` differ in what none of the engine's tables shows (RoPE's softmax scale).
    std::function<bool(const posenc::Params &a, const posenc::Params &b)> differs;
    // Whether its row `key` is one the window never disables although under `p` no value of it
    // changes anything (RoPE's rotary place when every column turns).
    std::function<bool(const posenc::Params &p, const QString &key)> inert;
    // Its documented claims of ParamUse::idle; empty: each of its rows is read under its first
    // setting of `idleSettings`. Every family's rows are also checked idle under every other family's settings
    // (OtherEncoding, unless borrowed), and compose and pe-dims under a family without a term.
    QList<TestIdleCase> idleCases;

    // Its flags as `posenc help parameters` writes them ("--alibi causal|symmetric"); empty:
    // "--<row>" for each of its rows (tst_cliencodings).
    QStringList helpFlags;
    // Flags of its rows (after --encoding word) valid at d_model 64 and max_len 50; empty: its
    // figureFlags. A family without a term leaves X = s·E whatever they say (tst_cliencodings).
    QStringList cliFlags;
    // Values of its flags the program refuses, and the words it refuses them with.
    QList<TestRefusal> refusals;

    // The keys `posenc describe` prints for it, in their order (tst_clidescribe); empty for a
    // family it does not describe.
    QStringList describeKeys;

    // Its panel of the families figure, where it has one (tst_familiesfigure): `panelParams` sets
    // its own fields of `p` as the figure's test draws them, `flipped` the second drawing (its
    // other mask); `panel` checks what is drawn for `query` against float64 sums, returning the
    // first point that differs.
    std::function<posenc::Params(posenc::Params p, bool flipped)> panelParams;
    std::function<std::optional<QString>(const posenc::Params &p, std::int64_t query, const TestPanel &drawn)> panel;

    // The quantities of its manifest, by name (tst_enginequantities pins the list, tst_familyspec
    // checks each is its family's).
    QStringList quantities;
    // The table the heatmap shows under it at d_model 64 and max_len 48 (HeatmapModel::natural;
    // empty: its first reference's quantity, none without one), and the sign of every cell: 1, -1,
    // or 0 for both, on a diverging map (tst_heatmappanel).
    QString heatmapQuantity;
    int heatmapSign = 0;
    // Its shipped presets, resources/presets/<n>-<name>.json by <name> (tst_clipresets), and how
    // their tables go through posenc table and posenc check (tst_clicheckroundtrip).
    QStringList presets;
    TestPresetTables presetTables;
    // Texts of its rows that must read back digit for digit (tst_paramtable), where its change's
    // text would show less (a published list of factors); a row not named reads back its change.
    TestSetting readBack;

    // Set by POSENC_TEST_FAMILY: the folder of its record, tests/families/<folder>/.
    QString folder;
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

// The settings tst_paramuse checks the family in: its idleSettings, or its settings.
const QList<std::pair<QString, TestSetting>> &idleSettings(const TestFamily &family);
// The family's setting named `name` (of idleSettings, then settings), stopping the test when it has
// none.
const TestSetting &setting(const TestFamily &family, const QString &name);
// The other texts tst_paramuse tries of the family's row `key` (otherValues, or its change and its
// default's text).
QStringList otherValues(const TestFamily &family, const QString &key);
// The quantities of the family's preset tables (presetTables.quantities, or its roundTrips').
QStringList presetQuantities(const TestFamily &family);
// The family whose record lists the preset `name`, or nothing.
const TestFamily *ofPreset(const QString &name);

// For POSENC_TEST_FAMILY.
bool add(posenc::Encoding encoding, TestFamily (*make)(), const char *file);

} // namespace TestFamilies

// Registers the family `Name` (its Encoding value's name) with the body that follows, which
// returns its TestFamily: POSENC_TEST_FAMILY(Name) { TestFamily f; ...; return f; }
#define POSENC_TEST_FAMILY(Name)                                                                                       \
    static TestFamily makeTest##Name##Family();                                                                        \
    [[maybe_unused]] static const bool registeredTest##Name##Family                                                    \
        = TestFamilies::add(posenc::Encoding::Name, &makeTest##Name##Family, __FILE__);                                \
    static TestFamily makeTest##Name##Family()
