// Params: defaults, derived values, validate() naming every bad parameter with its allowed
// range (docs/ARCHITECTURE.md, Layers and Errors are values).

#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "core/Params.h"
#include "support/TestMain.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <cmath>
#include <limits>
#include <memory>

namespace tst_paramsvalidation {
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

} // namespace

class TestParamsValidation : public QObject
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
    void tooNarrowNamesTheWidth_data();
    void tooNarrowNamesTheWidth();
    void noRangeIsEmpty();
    void errorToStringNamesFlag();
    void quotedTextIsOneLine_data();
    void quotedTextIsOneLine();
};

// The defaults of the program: docs/ARCHITECTURE.md, The mathematics (Transformer base) and Params.h.
void TestParamsValidation::defaultsAreValid()
{
    const Params p;
    QVERIFY2(p.validate().isEmpty(), qPrintable(describe(p.validate())));
    QVERIFY(p.isValid());
    QCOMPARE(p.dModel, std::int64_t(512));
    QCOMPARE(p.maxLen, std::int64_t(1024));
    QVERIFY(p.sinusoidal.base == 10000.0);
    QCOMPARE(p.sinusoidal.layout, Layout::Interleaved);
    QCOMPARE(p.sinusoidal.angles, Angles::Exact);
    QCOMPARE(p.compose, Compose::Sum);
    QCOMPARE(p.dropoutMode, DropoutMode::Sum);
    QCOMPARE(p.special, (std::vector<std::int64_t> {0, -1}));
    QVERIFY(p.training);
    QVERIFY(!p.embeddings);
}

void TestParamsValidation::derivedValues_data()
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

void TestParamsValidation::derivedValues()
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

void TestParamsValidation::specialRowsResolveNegatives_data()
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

void TestParamsValidation::specialRowsResolveNegatives()
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

void TestParamsValidation::invalidParameterIsNamed_data()
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
    row("base = 1", u"base"_s, u"1"_s, [](Params &p) { p.sinusoidal.base = 1.0; });
    row("base = 0.5", u"base"_s, u"0.5"_s, [](Params &p) { p.sinusoidal.base = 0.5; });
    row("base = 0", u"base"_s, u"0"_s, [](Params &p) { p.sinusoidal.base = 0.0; });
    row("base = -2", u"base"_s, u"-2"_s, [](Params &p) { p.sinusoidal.base = -2.0; });
    row("base NaN", u"base"_s, u"nan"_s, [](Params &p) { p.sinusoidal.base = kNaN; });
    row("base +inf", u"base"_s, u"inf"_s, [](Params &p) { p.sinusoidal.base = kInf; });
    row("base -inf", u"base"_s, u"inf"_s, [](Params &p) { p.sinusoidal.base = -kInf; });
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
void TestParamsValidation::invalidParameterIsNamed()
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

void TestParamsValidation::validEdgeValues_data()
{
    QTest::addColumn<Params>("params");
    const auto row = [](const char *name, auto change) {
        Params p;
        change(p);
        QTest::newRow(name) << p;
    };
    row("dropout 1", [](Params &p) { p.dropout = 1.0; });
    row("dropout 0", [](Params &p) { p.dropout = 0.0; });
    row("base just above 1", [](Params &p) { p.sinusoidal.base = 1.0001; });
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

void TestParamsValidation::validEdgeValues()
{
    QFETCH(Params, params);
    QVERIFY2(params.validate().isEmpty(), qPrintable(describe(params.validate())));
}

void TestParamsValidation::severalErrorsAllReported()
{
    Params p;
    p.dModel = -1;
    p.sinusoidal.base = kNaN;
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

// The audit: `--d-model 1` under RoPE said "--head-dim: must be an even integer in [2, 1]", and
// sincos-2d at d_model 6 named --grid: the width is what to change.
void TestParamsValidation::tooNarrowNamesTheWidth_data()
{
    QTest::addColumn<QString>("encoding");
    QTest::addColumn<QString>("compose");
    QTest::addColumn<std::int64_t>("width"); // d_model, or pe_dims in concat
    QTest::addColumn<QString>("key");
    for (const QString &encoding : {u"rope"_s, u"mrope"_s, u"rope-2d"_s})
        QTest::addRow("%s, d_model 1", qPrintable(encoding)) << encoding << u"sum"_s << std::int64_t(1) << u"d-model"_s;
    for (const std::int64_t d : {1, 2, 3, 6})
        QTest::addRow("sincos-2d, d_model %lld", static_cast<long long>(d))
            << u"sincos-2d"_s << u"sum"_s << d << u"d-model"_s;
    QTest::newRow("sincos-2d, concat, pe_dims 6") << u"sincos-2d"_s << u"concat"_s << std::int64_t(6) << u"pe-dims"_s;
}

void TestParamsValidation::tooNarrowNamesTheWidth()
{
    QFETCH(QString, encoding);
    QFETCH(QString, compose);
    QFETCH(std::int64_t, width);
    QFETCH(QString, key);
    Params p;
    QVERIFY(!ParamText::set(p, u"encoding"_s, encoding));
    QVERIFY(!ParamText::set(p, u"compose"_s, compose));
    p.maxLen = 16;
    if (compose == u"concat"_s) {
        p.dModel = 64;
        p.peDims = width;
    } else {
        p.dModel = width;
    }
    const QList<ParamError> errors = p.validate();
    QVERIFY2(keysOf(errors) == QSet<QString> {key}, qPrintable(describe(errors)));
    QVERIFY2(errors.front().sentence().endsWith(u"got "_s + QString::number(width)), qPrintable(describe(errors)));
}

// No message offers a range that holds nothing ("in [2, 1]"), at any width of any encoding.
void TestParamsValidation::noRangeIsEmpty()
{
    static const QRegularExpression range(u"\\[(-?[0-9]+), (-?[0-9]+)\\]"_s);
    for (const QString &encoding : ParamTable::find(u"encoding"_s)->choices) {
        for (const QString &compose : {u"sum"_s, u"concat"_s}) {
            for (std::int64_t width = 1; width <= 4; ++width) {
                Params p;
                QVERIFY(!ParamText::set(p, u"encoding"_s, encoding));
                QVERIFY(!ParamText::set(p, u"compose"_s, compose));
                p.dModel = compose == u"concat"_s ? 8 : width;
                p.peDims = width;
                for (const ParamError &e : p.validate()) {
                    for (auto it = range.globalMatch(e.sentence()); it.hasNext();) {
                        const auto m = it.next();
                        QVERIFY2(
                            m.captured(1).toLongLong() <= m.captured(2).toLongLong(),
                            qPrintable(
                                u"%1, %2 %3: %4: %5"_s.arg(encoding, compose).arg(width).arg(e.key, e.sentence())));
                    }
                }
            }
        }
    }
}

void TestParamsValidation::errorToStringNamesFlag()
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

void TestParamsValidation::quotedTextIsOneLine_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("shown");
    QTest::newRow("plain") << u"abc"_s << u"'abc'"_s;
    // Before: the settings file's `d-model=1"e400` (QSettings reads a quote to the next one, past
    // line ends) came back in three lines on standard error and in the status bar.
    QTest::newRow("line ends") << u"1e400\nmax-len=-5\r\n"_s << u"'1e400\\nmax-len=-5\\r\\n'"_s;
    QTest::newRow("tab, escape, nul") << u"a\tb\x1b[2Jc"_s + QChar(0) << u"'a\\tb\\x1b[2Jc\\x00'"_s;
    QTest::newRow("line and paragraph separators") << u"a\u2028b\u2029c\u0085"_s << u"'a\\u2028b\\u2029c\\x85'"_s;
    QTest::newRow("a backslash stays") << u"C:\\x"_s << u"'C:\\x'"_s;
    QTest::newRow("shortened after 60, escapes and all")
        << QString(59, u'x') + u"\n\n\n"_s << u"'"_s + QString(59, u'x') + u"\\n…' (62 characters)"_s;
    // Before: the count replaced the text's own %1.
    QTest::newRow("a shortened %1") << u"%1"_s + QString(70, u'x')
                                    << u"'%1"_s + QString(58, u'x') + u"…' (72 characters)"_s;
}

// What a user typed is shown on one line, whatever it holds: a message is one line (issue 62).
void TestParamsValidation::quotedTextIsOneLine()
{
    QFETCH(QString, text);
    QFETCH(QString, shown);
    QCOMPARE(ParamError::quoted(text), shown);
}

POSENC_TEST_GUILESS_MAIN(TestParamsValidation)
} // namespace tst_paramsvalidation
#include "tst_paramsvalidation.moc"
