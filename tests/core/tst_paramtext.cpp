// ParamText: the keys of the parameters, set/get round trips, malformed text refused with its
// range, and the parsers of index lists, ranges and finite numbers.

#include "core/ParamText.h"
#include "core/Params.h"
#include "support/TestMain.h"

#include <QSet>
#include <QTest>

namespace tst_paramtext {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// Parameters that differ from the defaults in every key that ParamText knows.
Params unusualParams()
{
    Params p;
    p.dModel = 96;
    p.maxLen = 777;
    p.sinusoidal.base = 0.1 + 12345.2; // not a short decimal: get() must print every digit
    p.sinusoidal.layout = Layout::Split;
    p.sinusoidal.angles = Angles::Float32;
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
    p.rope.headDim = 96;
    p.rope.theta = 0.1 + 150000.2;
    p.rope.partialRotaryFactor = 1.0 / 3.0;
    p.rope.layout = RopeLayout::Interleaved;
    p.rope.type = RopeType::LongRope;
    p.rope.factor = 0.1 + 0.7;
    p.rope.originalMaxLen = 4096;
    p.rope.lowFreqFactor = 0.3;
    p.rope.highFreqFactor = 1.0 / 7.0;
    p.rope.betaFast = 31.5;
    p.rope.betaSlow = 0.75;
    p.rope.yarnTruncate = false;
    p.rope.mscale = 0.707;
    p.rope.mscaleAllDim = 0.0;
    p.rope.attentionFactor = 1.0 / 9.0;
    p.rope.shortFactor = {1.1, 1.0 / 3.0, 2.000000000000001};
    p.rope.longFactor = {1.0700000524520874, 64.76000213623047};
    p.batch.lengths = u"left:5,8,3"_s;
    p.batch.packed = u"3,4/2"_s;
    p.batch.cache = 7;
    p.batch.ids = IdsChoice::OffByOne;
    p.batch.attnScale = 0.1 + 0.2;
    p.batch.floorScale = 4096;
    p.batch.chunk = 8192;
    return p;
}

} // namespace

class TestParamText : public QObject
{
    Q_OBJECT

private slots:
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

// docs/ARCHITECTURE.md, Command line names the parameters; each is a key of ParamText.
void TestParamText::valueKeysCoverTheParameters()
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
void TestParamText::roundTripEveryKey()
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
    QVERIFY2(rebuilt.sinusoidal.base == source.sinusoidal.base, "base must round-trip exactly");
    QCOMPARE(rebuilt.sinusoidal.layout, source.sinusoidal.layout);
    QCOMPARE(rebuilt.sinusoidal.angles, source.sinusoidal.angles);
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
    QVERIFY2(rebuilt.rope == source.rope, "RoPE's parameters must round-trip exactly");
    if (ParamText::valueKeys().contains(u"eval"_s) && ParamText::valueKeys().contains(u"memory-budget"_s))
        QVERIFY(rebuilt == source);
}

void TestParamText::setParsesValues_data()
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
    row(u"base"_s, u"500000"_s, [](Params &p) { p.sinusoidal.base = 500000.0; });
    row(u"base"_s, u"1e4"_s, [](Params &p) { p.sinusoidal.base = 10000.0; });
    row(u"base"_s, u"2.5"_s, [](Params &p) { p.sinusoidal.base = 2.5; });
    row(u"layout"_s, u"split"_s, [](Params &p) { p.sinusoidal.layout = Layout::Split; });
    row(u"layout"_s, u"interleaved"_s, [](Params &p) { p.sinusoidal.layout = Layout::Interleaved; });
    row(u"angles"_s, u"float32"_s, [](Params &p) { p.sinusoidal.angles = Angles::Float32; });
    row(u"angles"_s, u"exact"_s, [](Params &p) { p.sinusoidal.angles = Angles::Exact; });
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
    row(u"encoding"_s, u"rope"_s, [](Params &p) { p.encoding = Encoding::Rope; });
    row(u"head-dim"_s, u"64"_s, [](Params &p) { p.rope.headDim = 64; });
    row(u"rope-theta"_s, u"5e5"_s, [](Params &p) { p.rope.theta = 500000.0; });
    row(u"partial-rotary-factor"_s, u"0.25"_s, [](Params &p) { p.rope.partialRotaryFactor = 0.25; });
    row(u"rope-layout"_s, u"interleaved"_s, [](Params &p) { p.rope.layout = RopeLayout::Interleaved; });
    row(u"rope-type"_s, u"llama3"_s, [](Params &p) { p.rope.type = RopeType::Llama3; });
    row(u"rope-factor"_s, u"8"_s, [](Params &p) { p.rope.factor = 8.0; });
    row(u"rope-factor"_s, u"unset"_s, [](Params &) {});
    row(u"original-max-len"_s, u"8192"_s, [](Params &p) { p.rope.originalMaxLen = 8192; });
    row(u"original-max-len"_s, u"unset"_s, [](Params &) {});
    row(u"yarn-truncate"_s, u"false"_s, [](Params &p) { p.rope.yarnTruncate = false; });
    row(u"mscale-all-dim"_s, u"1"_s, [](Params &p) { p.rope.mscaleAllDim = 1.0; });
    row(u"short-factor"_s, u"1,1.5"_s, [](Params &p) { p.rope.shortFactor = {1.0, 1.5}; });
    row(u"long-factor"_s, u"none"_s, [](Params &) {});
    row(u"encoding"_s, u"alibi"_s, [](Params &p) { p.encoding = Encoding::Alibi; });
    row(u"heads"_s, u"12"_s, [](Params &p) { p.alibi.heads = 12; });
    row(u"head"_s, u"3"_s, [](Params &p) { p.alibi.head = 3; });
    row(u"alibi"_s, u"symmetric"_s, [](Params &p) { p.alibi.mask = AlibiMask::Symmetric; });
    row(u"t5-buckets"_s, u"64"_s, [](Params &p) { p.t5.buckets = 64; });
    row(u"t5-max-distance"_s, u"256"_s, [](Params &p) { p.t5.maxDistance = 256; });
    row(u"t5-causal"_s, u"true"_s, [](Params &p) { p.t5.causal = true; });
    row(u"t5-causal"_s, u"false"_s, [](Params &) {});
    row(u"deberta-buckets"_s, u"128"_s, [](Params &p) { p.deberta.buckets = 128; });
    row(u"deberta-max-position"_s, u"1024"_s, [](Params &p) { p.deberta.maxPosition = 1024; });
}

void TestParamText::setParsesValues()
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

void TestParamText::setRejectsMalformedText_data()
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
    for (const QString &key : {u"head-dim"_s, u"original-max-len"_s})
        rows(key, {u"abc"_s, u"1.5"_s, u"12abc"_s, u"auto"_s});
    for (const QString &key : {u"rope-theta"_s, u"partial-rotary-factor"_s, u"beta-fast"_s, u"rope-factor"_s,
                               u"mscale"_s, u"attention-factor"_s})
        rows(key, {u"abc"_s, u"1e"_s, u"nan"_s, u"inf"_s, u"0.5x"_s});
    for (const QString &key : {u"rope-type"_s, u"rope-layout"_s, u"yarn-truncate"_s, u"alibi"_s, u"t5-causal"_s})
        rows(key, {u"abc"_s, u""_s, u"ntk"_s});
    for (const QString &key : {u"heads"_s, u"head"_s, u"t5-buckets"_s, u"deberta-max-position"_s})
        rows(key, {u"abc"_s, u"1.5"_s, u""_s});
    for (const QString &key : {u"short-factor"_s, u"long-factor"_s})
        rows(key, {u"abc"_s, u"1,,2"_s, u"0"_s, u"-1.5"_s, u"1,nan"_s, u"inf"_s});
}

// The range a refused text names is the range Params::validate() checks.
void TestParamText::syntaxRefusalsNameTheRange_data()
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

void TestParamText::syntaxRefusalsNameTheRange()
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
void TestParamText::setRejectsMalformedText()
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

void TestParamText::setRejectsUnknownKey()
{
    Params p;
    const std::optional<ParamError> error = ParamText::set(p, u"d_model"_s, u"64"_s);
    QVERIFY(error.has_value());
    QCOMPARE(error->key, u"d_model"_s);
    QVERIFY(p == Params {});
}

void TestParamText::parseIndexList_data()
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

void TestParamText::parseIndexList()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(std::vector<std::int64_t>, values);
    const auto got = ParamText::parseIndexList(text);
    QCOMPARE(got.has_value(), valid);
    if (valid)
        QCOMPARE(*got, values);
}

void TestParamText::parseRange_data()
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

void TestParamText::parseRange()
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

void TestParamText::parseFinite_data()
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

void TestParamText::parseFinite()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(double, value);
    const auto got = ParamText::parseFinite(text);
    QCOMPARE(got.has_value(), valid);
    if (valid)
        QVERIFY2(*got == value, qPrintable(QString::number(*got, 'g', 17)));
}

void TestParamText::enumNames()
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

POSENC_TEST_GUILESS_MAIN(TestParamText)
} // namespace tst_paramtext
#include "tst_paramtext.moc"
