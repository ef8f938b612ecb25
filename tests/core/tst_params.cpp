// Params: defaults, derived values, validate() naming every bad parameter with its allowed
// range (docs/ARCHITECTURE.md, Layers and Errors are values); ParamText: set/get round trips and malformed text.

#include "core/ParamText.h"
#include "core/Params.h"

#include <QSet>
#include <QTest>

#include <cmath>
#include <limits>
#include <memory>

using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::shared_ptr<const EmbeddingMatrix> matrix(std::int64_t rows, std::int64_t cols)
{
    auto m = std::make_shared<EmbeddingMatrix>();
    m->values = RowMatrixXf::Constant(rows, cols, 0.5f);
    m->source = u"test matrix"_s;
    return m;
}

QString describe(const QList<ParamError> &errors)
{
    QStringList lines;
    for (const ParamError &e : errors)
        lines.append(e.key + u": "_s + e.sentence());
    return lines.isEmpty() ? u"(no error)"_s : lines.join(u"; "_s);
}

QSet<QString> keysOf(const QList<ParamError> &errors)
{
    QSet<QString> keys;
    for (const ParamError &e : errors)
        keys.insert(e.key);
    return keys;
}

// Parameters that differ from the defaults in every key that ParamText knows.
Params unusualParams()
{
    Params p;
    p.dModel = 96;
    p.maxLen = 777;
    p.base = 0.1 + 12345.2; // not a short decimal: get() must print every digit
    p.layout = Layout::Split;
    p.angles = Angles::Float32;
    p.scaleKind = ScaleKind::Custom;
    p.customScale = 2.0 / 3.0;
    p.init = InitKind::Custom;
    p.customSigma = 0.1 + 0.2;
    p.compose = Compose::Concat;
    p.peDims = 40;
    p.dropout = 1.0 / 3.0;
    p.dropoutMode = DropoutMode::ProtectSpecial;
    p.special = {0, 3, -1, -5};
    p.seqLen = 500;
    p.seed = 18446744073709551557ull;
    p.training = false;
    p.memoryBudget = std::uint64_t(3) << 28;
    return p;
}

} // namespace

class TestParams : public QObject
{
    Q_OBJECT

private slots:
    void defaultsAreValid();
    void derivedValues_data();
    void derivedValues();
    void specialRowsResolveNegatives_data();
    void specialRowsResolveNegatives();
    void invalidParameterIsNamed_data();
    void invalidParameterIsNamed();
    void validEdgeValues_data();
    void validEdgeValues();
    void severalErrorsAllReported();
    void errorToStringNamesFlag();
    void valueKeysCoverTheParameters();
    void roundTripEveryKey();
    void setParsesValues_data();
    void setParsesValues();
    void setRejectsMalformedText_data();
    void setRejectsMalformedText();
    void setRejectsUnknownKey();
    void syntaxRefusalsNameTheRange_data();
    void syntaxRefusalsNameTheRange();
    void parseIndexList_data();
    void parseIndexList();
    void parseRange_data();
    void parseRange();
    void parseFinite_data();
    void parseFinite();
    void enumNames();
};

// The defaults of the program: docs/ARCHITECTURE.md, The mathematics (Transformer base) and Params.h.
void TestParams::defaultsAreValid()
{
    const Params p;
    QVERIFY2(p.validate().isEmpty(), qPrintable(describe(p.validate())));
    QVERIFY(p.isValid());
    QCOMPARE(p.dModel, std::int64_t(512));
    QCOMPARE(p.maxLen, std::int64_t(1024));
    QVERIFY(p.base == 10000.0);
    QCOMPARE(p.layout, Layout::Interleaved);
    QCOMPARE(p.angles, Angles::Exact);
    QCOMPARE(p.compose, Compose::Sum);
    QCOMPARE(p.dropoutMode, DropoutMode::Sum);
    QCOMPARE(p.special, (std::vector<std::int64_t> {0, -1}));
    QVERIFY(p.training);
    QVERIFY(!p.embeddings);
}

void TestParams::derivedValues_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<double>("scale");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<std::int64_t>("peColumns");
    QTest::addColumn<std::int64_t>("embeddingColumns");
    QTest::addColumn<std::int64_t>("sequenceLength");

    Params p;
    QTest::newRow("defaults") << p << std::sqrt(512.0) << 1.0 << std::int64_t(512) << std::int64_t(512)
                              << std::int64_t(1024);
    p.scaleKind = ScaleKind::One;
    p.init = InitKind::ScaledNormal;
    p.dModel = 100;
    QTest::newRow("scale 1, scaled normal, d=100")
        << p << 1.0 << 0.1 << std::int64_t(100) << std::int64_t(100) << std::int64_t(1024);
    p.scaleKind = ScaleKind::Custom;
    p.customScale = 0.25;
    p.init = InitKind::Custom;
    p.customSigma = 0.02;
    p.seqLen = 300;
    QTest::newRow("custom scale and sigma, seq_len 300")
        << p << 0.25 << 0.02 << std::int64_t(100) << std::int64_t(100) << std::int64_t(300);
    Params c;
    c.compose = Compose::Concat;
    c.dModel = 64;
    QTest::newRow("concat, pe-dims unset: half of d")
        << c << 8.0 << 1.0 << std::int64_t(32) << std::int64_t(32) << std::int64_t(1024);
    c.peDims = 10;
    QTest::newRow("concat, pe-dims 10") << c << 8.0 << 1.0 << std::int64_t(10) << std::int64_t(54)
                                        << std::int64_t(1024);
    c.peDims = 64;
    QTest::newRow("concat, pe-dims = d") << c << 8.0 << 1.0 << std::int64_t(64) << std::int64_t(0)
                                         << std::int64_t(1024);
    Params s;
    s.peDims = 10; // ignored by sum
    QTest::newRow("sum ignores pe-dims") << s << std::sqrt(512.0) << 1.0 << std::int64_t(512) << std::int64_t(512)
                                         << std::int64_t(1024);
}

void TestParams::derivedValues()
{
    QFETCH(Params, params);
    QFETCH(double, scale);
    QFETCH(double, sigma);
    QFETCH(std::int64_t, peColumns);
    QFETCH(std::int64_t, embeddingColumns);
    QFETCH(std::int64_t, sequenceLength);
    QVERIFY(std::abs(params.scale() - scale) <= 1e-15 * scale);
    QVERIFY(std::abs(params.sigma() - sigma) <= 1e-15 * sigma);
    QCOMPARE(params.peColumns(), peColumns);
    QCOMPARE(params.embeddingColumns(), embeddingColumns);
    QCOMPARE(params.sequenceLength(), sequenceLength);
}

void TestParams::specialRowsResolveNegatives_data()
{
    QTest::addColumn<std::vector<std::int64_t>>("special");
    QTest::addColumn<std::int64_t>("seqLen"); // 0: unset
    QTest::addColumn<std::int64_t>("maxLen");
    QTest::addColumn<QList<std::int64_t>>("rows");
    QTest::newRow("default, L = 300") << std::vector<std::int64_t> {0, -1} << std::int64_t(0) << std::int64_t(300)
                                      << QList<std::int64_t> {0, 299};
    QTest::newRow("default, seq_len 200")
        << std::vector<std::int64_t> {0, -1} << std::int64_t(200) << std::int64_t(300) << QList<std::int64_t> {0, 199};
    QTest::newRow("0, 5, -2 of 100") << std::vector<std::int64_t> {0, 5, -2} << std::int64_t(100) << std::int64_t(300)
                                     << QList<std::int64_t> {0, 5, 98};
    QTest::newRow("-100 of 100") << std::vector<std::int64_t> {-100} << std::int64_t(100) << std::int64_t(100)
                                 << QList<std::int64_t> {0};
    QTest::newRow("none") << std::vector<std::int64_t> {} << std::int64_t(0) << std::int64_t(10)
                          << QList<std::int64_t> {};
}

void TestParams::specialRowsResolveNegatives()
{
    QFETCH(std::vector<std::int64_t>, special);
    QFETCH(std::int64_t, seqLen);
    QFETCH(std::int64_t, maxLen);
    QFETCH(QList<std::int64_t>, rows);
    Params p;
    p.special = special;
    p.maxLen = maxLen;
    if (seqLen > 0)
        p.seqLen = seqLen;
    QVERIFY2(p.isValid(), qPrintable(describe(p.validate())));
    const std::vector<std::int64_t> got = p.specialRows();
    QSet<std::int64_t> gotSet(got.begin(), got.end());
    QSet<std::int64_t> expectedSet(rows.begin(), rows.end());
    QCOMPARE(gotSet, expectedSet);
}

void TestParams::invalidParameterIsNamed_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("given"); // the bad value, as the message should show it

    const auto row = [](const char *name, const QString &key, const QString &given, auto change) {
        Params p;
        change(p);
        QTest::newRow(name) << p << key << given;
    };
    row("d = 0", u"d-model"_s, u"0"_s, [](Params &p) { p.dModel = 0; });
    row("d = -1", u"d-model"_s, u"-1"_s, [](Params &p) { p.dModel = -1; });
    row("d = 2^20 + 1", u"d-model"_s, u"1048577"_s, [](Params &p) { p.dModel = Params::kMaxDModel + 1; });
    row("d = 2^40", u"d-model"_s, u"1099511627776"_s, [](Params &p) { p.dModel = std::int64_t(1) << 40; });
    row("L = 0", u"max-len"_s, u"0"_s, [](Params &p) { p.maxLen = 0; });
    row("L = -5", u"max-len"_s, u"-5"_s, [](Params &p) { p.maxLen = -5; });
    row("L = 2^24 + 1", u"max-len"_s, u"16777217"_s, [](Params &p) { p.maxLen = Params::kMaxLen + 1; });
    row("base = 1", u"base"_s, u"1"_s, [](Params &p) { p.base = 1.0; });
    row("base = 0.5", u"base"_s, u"0.5"_s, [](Params &p) { p.base = 0.5; });
    row("base = 0", u"base"_s, u"0"_s, [](Params &p) { p.base = 0.0; });
    row("base = -2", u"base"_s, u"-2"_s, [](Params &p) { p.base = -2.0; });
    row("base NaN", u"base"_s, u"nan"_s, [](Params &p) { p.base = kNaN; });
    row("base +inf", u"base"_s, u"inf"_s, [](Params &p) { p.base = kInf; });
    row("base -inf", u"base"_s, u"inf"_s, [](Params &p) { p.base = -kInf; });
    row("dropout -0.1", u"dropout"_s, u"-0.1"_s, [](Params &p) { p.dropout = -0.1; });
    row("dropout 1.5", u"dropout"_s, u"1.5"_s, [](Params &p) { p.dropout = 1.5; });
    row("dropout NaN", u"dropout"_s, u"nan"_s, [](Params &p) { p.dropout = kNaN; });
    row("dropout inf", u"dropout"_s, u"inf"_s, [](Params &p) { p.dropout = kInf; });
    row("custom scale NaN", u"scale"_s, u"nan"_s, [](Params &p) {
        p.scaleKind = ScaleKind::Custom;
        p.customScale = kNaN;
    });
    row("custom scale inf", u"scale"_s, u"inf"_s, [](Params &p) {
        p.scaleKind = ScaleKind::Custom;
        p.customScale = kInf;
    });
    row("custom scale -inf", u"scale"_s, u"inf"_s, [](Params &p) {
        p.scaleKind = ScaleKind::Custom;
        p.customScale = -kInf;
    });
    row("sigma -1", u"init"_s, u"-1"_s, [](Params &p) {
        p.init = InitKind::Custom;
        p.customSigma = -1.0;
    });
    row("sigma NaN", u"init"_s, u"nan"_s, [](Params &p) {
        p.init = InitKind::Custom;
        p.customSigma = kNaN;
    });
    row("sigma inf", u"init"_s, u"inf"_s, [](Params &p) {
        p.init = InitKind::Custom;
        p.customSigma = kInf;
    });
    row("pe-dims -1 in concat", u"pe-dims"_s, u"-1"_s, [](Params &p) {
        p.compose = Compose::Concat;
        p.peDims = -1;
    });
    row("pe-dims d + 1 in concat", u"pe-dims"_s, u"513"_s, [](Params &p) {
        p.compose = Compose::Concat;
        p.peDims = 513;
    });
    row("special = seq_len", u"special"_s, u"100"_s, [](Params &p) {
        p.seqLen = 100;
        p.special = {0, 100};
    });
    row("special = -seq_len - 1", u"special"_s, u"-101"_s, [](Params &p) {
        p.seqLen = 100;
        p.special = {-101};
    });
    row("special = max_len, seq_len unset", u"special"_s, u"1024"_s, [](Params &p) { p.special = {1024}; });
    row("seq_len 0", u"seq-len"_s, u"0"_s, [](Params &p) { p.seqLen = 0; });
    row("seq_len -3", u"seq-len"_s, u"-3"_s, [](Params &p) { p.seqLen = -3; });
    row("seq_len > max_len", u"seq-len"_s, u"1025"_s, [](Params &p) { p.seqLen = 1025; });
    row("embeddings with d - 1 columns", u"embeddings"_s, u"511"_s,
        [](Params &p) { p.embeddings = matrix(1024, 511); });
    row("embeddings with d columns in concat", u"embeddings"_s, u"512"_s, [](Params &p) {
        p.compose = Compose::Concat;
        p.peDims = 256;
        p.embeddings = matrix(1024, 512);
    });
    row("embeddings with too few rows", u"embeddings"_s, u"1023"_s,
        [](Params &p) { p.embeddings = matrix(1023, 512); });
}

// Each bad value is reported under its own key, with a message that shows what was given.
void TestParams::invalidParameterIsNamed()
{
    QFETCH(Params, params);
    QFETCH(QString, key);
    QFETCH(QString, given);
    const QList<ParamError> errors = params.validate();
    QVERIFY(!params.isValid());
    QVERIFY2(keysOf(errors).contains(key),
             qPrintable(u"expected an error for %1, got %2"_s.arg(key, describe(errors))));
    for (const ParamError &e : errors) {
        if (e.key != key)
            continue;
        const QString sentence = e.sentence();
        QVERIFY2(!sentence.isEmpty(), qPrintable(key));
        QVERIFY2(sentence.contains(given, Qt::CaseInsensitive),
                 qPrintable(u"message for %1 should show the value %2: %3"_s.arg(key, given, sentence)));
        // A value outside its range states the range; the wording of the key is the front end's.
        QVERIFY2(!e.given || !e.allowed.isEmpty(), qPrintable(sentence));
        QVERIFY2(!sentence.contains(u"--"_s), qPrintable(sentence));
    }
}

void TestParams::validEdgeValues_data()
{
    QTest::addColumn<Params>("params");
    const auto row = [](const char *name, auto change) {
        Params p;
        change(p);
        QTest::newRow(name) << p;
    };
    row("dropout 1", [](Params &p) { p.dropout = 1.0; });
    row("dropout 0", [](Params &p) { p.dropout = 0.0; });
    row("base just above 1", [](Params &p) { p.base = 1.0001; });
    row("d = 1", [](Params &p) { p.dModel = 1; });
    row("d = 511", [](Params &p) { p.dModel = 511; });
    row("d = 2^20", [](Params &p) { p.dModel = Params::kMaxDModel; });
    row("L = 1", [](Params &p) { p.maxLen = 1; });
    row("L = 2^24", [](Params &p) { p.maxLen = Params::kMaxLen; });
    row("pe-dims 0 in concat", [](Params &p) {
        p.compose = Compose::Concat;
        p.peDims = 0;
    });
    row("pe-dims d in concat", [](Params &p) {
        p.compose = Compose::Concat;
        p.peDims = 512;
    });
    row("seq_len = max_len", [](Params &p) { p.seqLen = 1024; });
    row("seq_len = 1", [](Params &p) { p.seqLen = 1; });
    row("special = -seq_len", [](Params &p) {
        p.seqLen = 100;
        p.special = {-100, 99};
    });
    row("no special positions", [](Params &p) { p.special.clear(); });
    row("custom scale 0.5", [](Params &p) {
        p.scaleKind = ScaleKind::Custom;
        p.customScale = 0.5;
    });
    row("sigma 0.02", [](Params &p) {
        p.init = InitKind::Custom;
        p.customSigma = 0.02;
    });
    row("embeddings d columns, max_len rows", [](Params &p) { p.embeddings = matrix(1024, 512); });
    row("embeddings with more rows than max_len", [](Params &p) { p.embeddings = matrix(5000, 512); });
    row("embeddings d - k columns in concat", [](Params &p) {
        p.compose = Compose::Concat;
        p.peDims = 200;
        p.embeddings = matrix(1024, 312);
    });
}

void TestParams::validEdgeValues()
{
    QFETCH(Params, params);
    QVERIFY2(params.validate().isEmpty(), qPrintable(describe(params.validate())));
}

void TestParams::severalErrorsAllReported()
{
    Params p;
    p.dModel = -1;
    p.base = kNaN;
    p.dropout = 2.0;
    p.maxLen = 0;
    p.scaleKind = ScaleKind::Custom;
    p.customScale = kInf;
    const QList<ParamError> errors = p.validate();
    const QSet<QString> keys = keysOf(errors);
    for (const QString &key : {u"d-model"_s, u"base"_s, u"dropout"_s, u"max-len"_s, u"scale"_s})
        QVERIFY2(keys.contains(key), qPrintable(u"missing %1 in %2"_s.arg(key, describe(errors))));
    QVERIFY(errors.size() >= 5);
}

void TestParams::errorToStringNamesFlag()
{
    // An error is a value: the key, the allowed range and what was given; its sentence leaves the
    // key to the front end (the command line says --d-model, the window d_model).
    const ParamError e {u"d-model"_s, u"an integer in [1, 1048576]"_s, QString(), u"0"_s};
    QCOMPARE(e.sentence(), u"must be an integer in [1, 1048576]; got 0"_s);
    const ParamError matrix {u"embeddings"_s, QString(), u"the matrix has 3 columns; the model needs 4"_s, {}};
    QCOMPARE(matrix.sentence(), u"the matrix has 3 columns; the model needs 4"_s);
    // A pasted megabyte is not echoed whole.
    const QString quoted = ParamError::quoted(QString(5 << 20, u'x'));
    QVERIFY(quoted.size() < 100);
    QVERIFY(quoted.contains(u"5242880 characters"_s));
}

// docs/ARCHITECTURE.md, Command line names the parameters; each is a key of ParamText.
void TestParams::valueKeysCoverTheParameters()
{
    const QStringList keys = ParamText::valueKeys();
    for (const QString &key :
         {u"d-model"_s, u"max-len"_s, u"base"_s, u"layout"_s, u"angles"_s, u"scale"_s, u"init"_s, u"compose"_s,
          u"pe-dims"_s, u"dropout"_s, u"dropout-mode"_s, u"special"_s, u"seq-len"_s, u"seed"_s})
        QVERIFY2(keys.contains(key), qPrintable(key));
    QCOMPARE(QSet<QString>(keys.begin(), keys.end()).size(), keys.size());
    QVERIFY(keys.indexOf(u"d-model"_s) < keys.indexOf(u"max-len"_s));
    QVERIFY(keys.indexOf(u"max-len"_s) < keys.indexOf(u"base"_s));
    for (const QString &key : keys)
        QVERIFY2(!ParamText::describe(key).isEmpty(), qPrintable(key));
}

// For every key: the text get() writes is read back by set() to the same value, and setting
// every key of unusual parameters onto defaults rebuilds them exactly.
void TestParams::roundTripEveryKey()
{
    const Params source = unusualParams();
    Params rebuilt;
    for (const QString &key : ParamText::valueKeys()) {
        if (key == u"embeddings"_s)
            continue; // a file, read by io
        const QString text = ParamText::get(source, key);
        QVERIFY2(!text.isEmpty(), qPrintable(key));
        const std::optional<ParamError> error = ParamText::set(rebuilt, key, text);
        QVERIFY2(!error,
                 qPrintable(u"%1 = '%2': %3"_s.arg(key, text,
                                                   error ? (error->key + u": "_s + error->sentence()) : QString())));
        QCOMPARE(ParamText::get(rebuilt, key), text);
        // The same text on fresh defaults gives the same field.
        Params fresh;
        QVERIFY(!ParamText::set(fresh, key, text));
        QCOMPARE(ParamText::get(fresh, key), text);
    }
    QCOMPARE(rebuilt.dModel, source.dModel);
    QCOMPARE(rebuilt.maxLen, source.maxLen);
    QVERIFY2(rebuilt.base == source.base, "base must round-trip exactly");
    QCOMPARE(rebuilt.layout, source.layout);
    QCOMPARE(rebuilt.angles, source.angles);
    QCOMPARE(rebuilt.scaleKind, source.scaleKind);
    QVERIFY2(rebuilt.customScale == source.customScale, "customScale must round-trip exactly");
    QCOMPARE(rebuilt.init, source.init);
    QVERIFY2(rebuilt.customSigma == source.customSigma, "customSigma must round-trip exactly");
    QCOMPARE(rebuilt.compose, source.compose);
    QCOMPARE(rebuilt.peDims, source.peDims);
    QVERIFY2(rebuilt.dropout == source.dropout, "dropout must round-trip exactly");
    QCOMPARE(rebuilt.dropoutMode, source.dropoutMode);
    QCOMPARE(rebuilt.special, source.special);
    QCOMPARE(rebuilt.seqLen, source.seqLen);
    QCOMPARE(rebuilt.seed, source.seed);
    if (ParamText::valueKeys().contains(u"eval"_s))
        QCOMPARE(rebuilt.training, source.training);
    if (ParamText::valueKeys().contains(u"memory-budget"_s))
        QCOMPARE(rebuilt.memoryBudget, source.memoryBudget);
    if (ParamText::valueKeys().contains(u"eval"_s) && ParamText::valueKeys().contains(u"memory-budget"_s))
        QVERIFY(rebuilt == source);
}

void TestParams::setParsesValues_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    QTest::addColumn<Params>("expected");
    const auto row = [](const QString &key, const QString &text, auto change) {
        Params p;
        change(p);
        QTest::addRow("%s = '%s'", qPrintable(key), qPrintable(text)) << key << text << p;
    };
    row(u"d-model"_s, u"96"_s, [](Params &p) { p.dModel = 96; });
    row(u"max-len"_s, u"4096"_s, [](Params &p) { p.maxLen = 4096; });
    row(u"base"_s, u"500000"_s, [](Params &p) { p.base = 500000.0; });
    row(u"base"_s, u"1e4"_s, [](Params &p) { p.base = 10000.0; });
    row(u"base"_s, u"2.5"_s, [](Params &p) { p.base = 2.5; });
    row(u"layout"_s, u"split"_s, [](Params &p) { p.layout = Layout::Split; });
    row(u"layout"_s, u"interleaved"_s, [](Params &p) { p.layout = Layout::Interleaved; });
    row(u"angles"_s, u"float32"_s, [](Params &p) { p.angles = Angles::Float32; });
    row(u"angles"_s, u"exact"_s, [](Params &p) { p.angles = Angles::Exact; });
    row(u"scale"_s, u"sqrt"_s, [](Params &p) { p.scaleKind = ScaleKind::Sqrt; });
    row(u"scale"_s, u"2.5"_s, [](Params &p) {
        p.scaleKind = ScaleKind::Custom;
        p.customScale = 2.5;
    });
    row(u"init"_s, u"normal"_s, [](Params &p) { p.init = InitKind::Normal; });
    row(u"init"_s, u"scaled-normal"_s, [](Params &p) { p.init = InitKind::ScaledNormal; });
    row(u"init"_s, u"0.02"_s, [](Params &p) {
        p.init = InitKind::Custom;
        p.customSigma = 0.02;
    });
    row(u"compose"_s, u"concat"_s, [](Params &p) { p.compose = Compose::Concat; });
    row(u"pe-dims"_s, u"32"_s, [](Params &p) { p.peDims = 32; });
    row(u"dropout"_s, u"0.25"_s, [](Params &p) { p.dropout = 0.25; });
    row(u"dropout"_s, u"1"_s, [](Params &p) { p.dropout = 1.0; });
    row(u"dropout-mode"_s, u"sum"_s, [](Params &p) { p.dropoutMode = DropoutMode::Sum; });
    row(u"dropout-mode"_s, u"embedding"_s, [](Params &p) { p.dropoutMode = DropoutMode::Embedding; });
    row(u"dropout-mode"_s, u"protect-special"_s, [](Params &p) { p.dropoutMode = DropoutMode::ProtectSpecial; });
    row(u"dropout-mode"_s, u"masked-fill"_s, [](Params &p) { p.dropoutMode = DropoutMode::MaskedFill; });
    row(u"special"_s, u"0,-1,5"_s, [](Params &p) { p.special = {0, -1, 5}; });
    row(u"special"_s, u"0,10:12"_s, [](Params &p) { p.special = {0, 10, 11}; });
    row(u"seq-len"_s, u"100"_s, [](Params &p) { p.seqLen = 100; });
    row(u"seed"_s, u"42"_s, [](Params &p) { p.seed = 42; });
    row(u"seed"_s, u"18446744073709551615"_s, [](Params &p) { p.seed = 18446744073709551615ull; });
}

void TestParams::setParsesValues()
{
    QFETCH(QString, key);
    QFETCH(QString, text);
    QFETCH(Params, expected);
    Params p;
    const std::optional<ParamError> error = ParamText::set(p, key, text);
    QVERIFY2(!error, qPrintable(error ? (error->key + u": "_s + error->sentence()) : QString()));
    QVERIFY2(p == expected, qPrintable(u"%1 reads back as '%2'"_s.arg(key, ParamText::get(p, key))));
    // And the text get() writes for it gives the same parameters again.
    Params again;
    QVERIFY(!ParamText::set(again, key, ParamText::get(p, key)));
    QVERIFY(again == p);
}

void TestParams::setRejectsMalformedText_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    const auto rows = [](const QString &key, const QStringList &texts) {
        for (const QString &text : texts)
            QTest::addRow("%s = '%s'", qPrintable(key), qPrintable(text)) << key << text;
    };
    const QStringList malformed = {u"abc"_s, u"1e"_s, u"nan"_s, u""_s, u"1,,2"_s};
    for (const QString &key : {u"d-model"_s, u"max-len"_s, u"base"_s, u"dropout"_s, u"seq-len"_s, u"seed"_s,
                               u"pe-dims"_s, u"scale"_s, u"init"_s})
        rows(key, malformed);
    for (const QString &key : {u"d-model"_s, u"max-len"_s, u"seq-len"_s, u"seed"_s, u"pe-dims"_s})
        rows(key, {u"1.5"_s, u"12abc"_s});
    for (const QString &key : {u"base"_s, u"dropout"_s, u"scale"_s, u"init"_s})
        rows(key, {u"inf"_s, u"-inf"_s, u"0.5x"_s});
    for (const QString &key : {u"layout"_s, u"angles"_s, u"compose"_s, u"dropout-mode"_s})
        rows(key, {u"abc"_s, u""_s, u"1e"_s, u"nan"_s});
    rows(u"special"_s, {u"abc"_s, u"1e"_s, u"nan"_s, u""_s, u"1,,2"_s, u"0,x"_s, u"3:"_s});
    // The release audit's texts that were refused without their range.
    rows(u"d-model"_s, {u"1e3"_s, u"512.5"_s});
    rows(u"base"_s, {u"1e400"_s});
    rows(u"seed"_s, {u"-1"_s});
    rows(u"special"_s, {u"0:99999999999"_s});
    rows(u"memory-budget"_s, {u"0"_s, u"-1"_s, u"abc"_s});
}

// The range a refused text names is the range Params::validate() checks.
void TestParams::syntaxRefusalsNameTheRange_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("range");
    QTest::newRow("d-model abc") << u"d-model"_s << u"abc"_s << u"[1, 1048576]"_s;
    QTest::newRow("d-model 1e3") << u"d-model"_s << u"1e3"_s << u"[1, 1048576]"_s;
    QTest::newRow("d-model 512.5") << u"d-model"_s << u"512.5"_s << u"[1, 1048576]"_s;
    QTest::newRow("max-len x") << u"max-len"_s << u"x"_s << u"[1, 16777216]"_s;
    QTest::newRow("base 1e400") << u"base"_s << u"1e400"_s << u"greater than 1"_s;
    QTest::newRow("seed -1") << u"seed"_s << u"-1"_s << u"[0, 18446744073709551615]"_s;
    QTest::newRow("special huge") << u"special"_s << u"0:99999999999"_s << u"at most 16777216 positions"_s;
    QTest::newRow("dropout p") << u"dropout"_s << u"p"_s << u"[0, 1]"_s;
}

void TestParams::syntaxRefusalsNameTheRange()
{
    QFETCH(QString, key);
    QFETCH(QString, text);
    QFETCH(QString, range);
    Params p;
    const auto error = ParamText::set(p, key, text);
    QVERIFY(error.has_value());
    QVERIFY2(error->sentence().contains(range), qPrintable(error->sentence()));
    QVERIFY2(error->sentence().contains(u"'%1'"_s.arg(text)), qPrintable(error->sentence()));
}

// Malformed text is refused with an error naming the key, and the parameters stay as they were.
void TestParams::setRejectsMalformedText()
{
    QFETCH(QString, key);
    QFETCH(QString, text);
    Params p;
    const std::optional<ParamError> error = ParamText::set(p, key, text);
    QVERIFY2(error.has_value(),
             qPrintable(u"'%1' was accepted for %2 (reads back as '%3')"_s.arg(text, key, ParamText::get(p, key))));
    QCOMPARE(error->key, key);
    // The refusal states what the value must be, with its range, and quotes what was given.
    QVERIFY2(!error->allowed.isEmpty(), qPrintable(error->sentence()));
    QVERIFY(error->given.has_value());
    QVERIFY2(error->sentence().contains(text.left(20)), qPrintable(error->sentence()));
    QVERIFY2(p == Params {}, "a refused value must not change the parameters");
}

void TestParams::setRejectsUnknownKey()
{
    Params p;
    const std::optional<ParamError> error = ParamText::set(p, u"d_model"_s, u"64"_s);
    QVERIFY(error.has_value());
    QCOMPARE(error->key, u"d_model"_s);
    QVERIFY(p == Params {});
}

void TestParams::parseIndexList_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<std::vector<std::int64_t>>("values");
    QTest::newRow("0,5,-1") << u"0,5,-1"_s << true << std::vector<std::int64_t> {0, 5, -1};
    QTest::newRow("3:7") << u"3:7"_s << true << std::vector<std::int64_t> {3, 4, 5, 6};
    QTest::newRow("0,10:12") << u"0,10:12"_s << true << std::vector<std::int64_t> {0, 10, 11};
    QTest::newRow("single") << u"42"_s << true << std::vector<std::int64_t> {42};
    QTest::newRow("1,,2") << u"1,,2"_s << false << std::vector<std::int64_t> {};
    QTest::newRow("abc") << u"abc"_s << false << std::vector<std::int64_t> {};
    QTest::newRow("1e") << u"1e"_s << false << std::vector<std::int64_t> {};
    QTest::newRow("trailing comma") << u"1,2,"_s << false << std::vector<std::int64_t> {};
    QTest::newRow("half range") << u"3:"_s << false << std::vector<std::int64_t> {};
    QTest::newRow("1.5") << u"1.5"_s << false << std::vector<std::int64_t> {};
    // Refused before a vector of 10^11 values is built (it used to throw bad_alloc).
    QTest::newRow("range longer than the limit") << u"0:99999999999"_s << false << std::vector<std::int64_t> {};
    QTest::newRow("range whose length overflows")
        << u"-9223372036854775807:9223372036854775807"_s << false << std::vector<std::int64_t> {};
}

void TestParams::parseIndexList()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(std::vector<std::int64_t>, values);
    const auto got = ParamText::parseIndexList(text);
    QCOMPARE(got.has_value(), valid);
    if (valid)
        QCOMPARE(*got, values);
}

void TestParams::parseRange_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<std::int64_t>("first");
    QTest::addColumn<std::int64_t>("second");
    QTest::newRow("3:7") << u"3:7"_s << true << std::int64_t(3) << std::int64_t(7);
    QTest::newRow("0:16777216") << u"0:16777216"_s << true << std::int64_t(0) << std::int64_t(16777216);
    QTest::newRow("3") << u"3"_s << false << std::int64_t(0) << std::int64_t(0);
    QTest::newRow(":7") << u":7"_s << false << std::int64_t(0) << std::int64_t(0);
    QTest::newRow("3:") << u"3:"_s << false << std::int64_t(0) << std::int64_t(0);
    QTest::newRow("a:b") << u"a:b"_s << false << std::int64_t(0) << std::int64_t(0);
    QTest::newRow("1:2:3") << u"1:2:3"_s << false << std::int64_t(0) << std::int64_t(0);
}

void TestParams::parseRange()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(std::int64_t, first);
    QFETCH(std::int64_t, second);
    const auto got = ParamText::parseRange(text);
    QCOMPARE(got.has_value(), valid);
    if (valid) {
        QCOMPARE(got->first, first);
        QCOMPARE(got->second, second);
    }
}

void TestParams::parseFinite_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<double>("value");
    QTest::newRow("1e-3") << u"1e-3"_s << true << 1e-3;
    QTest::newRow("10000") << u"10000"_s << true << 10000.0;
    QTest::newRow("-2.5") << u"-2.5"_s << true << -2.5;
    QTest::newRow("17 digits") << u"0.30000000000000004"_s << true << 0.30000000000000004;
    QTest::newRow("nan") << u"nan"_s << false << 0.0;
    QTest::newRow("inf") << u"inf"_s << false << 0.0;
    QTest::newRow("-inf") << u"-inf"_s << false << 0.0;
    QTest::newRow("1e") << u"1e"_s << false << 0.0;
    QTest::newRow("1x") << u"1x"_s << false << 0.0;
    QTest::newRow("empty") << u""_s << false << 0.0;
    QTest::newRow("1e400 overflows") << u"1e400"_s << false << 0.0;
}

void TestParams::parseFinite()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(double, value);
    const auto got = ParamText::parseFinite(text);
    QCOMPARE(got.has_value(), valid);
    if (valid)
        QVERIFY2(*got == value, qPrintable(QString::number(*got, 'g', 17)));
}

void TestParams::enumNames()
{
    QCOMPARE(ParamText::toString(Layout::Interleaved), u"interleaved"_s);
    QCOMPARE(ParamText::toString(Layout::Split), u"split"_s);
    QCOMPARE(ParamText::toString(Angles::Exact), u"exact"_s);
    QCOMPARE(ParamText::toString(Angles::Float32), u"float32"_s);
    QCOMPARE(ParamText::toString(Compose::Sum), u"sum"_s);
    QCOMPARE(ParamText::toString(Compose::Concat), u"concat"_s);
    QCOMPARE(ParamText::toString(DropoutMode::Sum), u"sum"_s);
    QCOMPARE(ParamText::toString(DropoutMode::Embedding), u"embedding"_s);
    QCOMPARE(ParamText::toString(DropoutMode::ProtectSpecial), u"protect-special"_s);
    QCOMPARE(ParamText::toString(DropoutMode::MaskedFill), u"masked-fill"_s);
}

QTEST_GUILESS_MAIN(TestParams)
#include "tst_params.moc"
