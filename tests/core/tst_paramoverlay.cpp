// Parameter texts laid over parameters (ParamOverlay), as a session, a lesson or a preset is
// applied: the parameters the texts name take their values, the others keep the base's, keys that
// are not parameters of the mathematics are left to the caller, a text that does not read is
// named, and only a sound whole is given back, with every problem otherwise.
#include "core/ParamOverlay.h"
#include "support/TestMain.h"

#include <QTest>

namespace tst_paramoverlay {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestParamOverlay : public QObject
{
    Q_OBJECT

private slots:
    void theNamedParametersTakeTheirValues();
    void theOthersKeepTheBase();
    void aMatrixIsTheCallers();
    void everyTextThatDoesNotReadIsNamed();
    void aWholeThatIsNotSoundIsRefused();
    void aTextThatDoesNotReadNamesTheRangeTheOthersAllow();
};

void TestParamOverlay::theNamedParametersTakeTheirValues()
{
    const ParamTexts texts
        = {{u"d-model"_s, u"96"_s}, {u"max-len"_s, u"300"_s},  {u"layout"_s, u"split"_s},   {u"scale"_s, u"2.5"_s},
           {u"init"_s, u"0.02"_s},  {u"dropout"_s, u"0.25"_s}, {u"special"_s, u"0,3,-1"_s}, {u"seq-len"_s, u"200"_s},
           {u"seed"_s, u"7"_s},     {u"eval"_s, u"true"_s},    {u"compose"_s, u"concat"_s}, {u"pe-dims"_s, u"32"_s}};
    const auto read = ParamOverlay::over(Params {}, texts);
    QVERIFY(std::holds_alternative<Params>(read));
    const Params &p = std::get<Params>(read);
    QCOMPARE(p.dModel, 96);
    QCOMPARE(p.maxLen, 300);
    QCOMPARE(p.sinusoidal.layout, Layout::Split);
    QCOMPARE(p.scaleKind, ScaleKind::Custom);
    QCOMPARE(p.customScale, 2.5);
    QCOMPARE(p.init, InitKind::Custom);
    QCOMPARE(p.customSigma, 0.02);
    QCOMPARE(p.dropout, 0.25);
    QCOMPARE(p.special, (std::vector<std::int64_t> {0, 3, -1}));
    QCOMPARE(p.seqLen, std::optional<std::int64_t>(200));
    QCOMPARE(p.seed, 7u);
    QVERIFY(!p.training);
    QCOMPARE(p.compose, Compose::Concat);
    QCOMPARE(p.peDims, std::optional<std::int64_t>(32));
}

void TestParamOverlay::theOthersKeepTheBase()
{
    Params base;
    base.dModel = 64;
    base.maxLen = 2048;
    base.sinusoidal.base = 500.0;
    base.seed = 99;
    base.memoryBudget = std::uint64_t(1) << 30;
    const auto read = ParamOverlay::over(base, {{u"init"_s, u"scaled-normal"_s}, {u"scale"_s, u"1"_s}});
    QVERIFY(std::holds_alternative<Params>(read));
    Params expected = base;
    expected.init = InitKind::ScaledNormal;
    expected.scaleKind = ScaleKind::One;
    QVERIFY(std::get<Params>(read) == expected);
    // Nothing named: the base, as it is.
    QVERIFY(std::get<Params>(ParamOverlay::over(base, {})) == base);
}

void TestParamOverlay::aMatrixIsTheCallers()
{
    // A matrix to load and its rows are read by whoever loads it: set() leaves them, and the
    // parameters they would change, alone.
    Params params;
    const QList<ParamError> errors
        = ParamOverlay::set(params, {{u"embeddings"_s, u"wte.npy:x"_s}, {u"tokens"_s, u"1,2"_s}, {u"seed"_s, u"3"_s}});
    QVERIFY(errors.isEmpty());
    QVERIFY(!params.embeddings);
    Params expected;
    expected.seed = 3;
    QVERIFY(params == expected);
}

void TestParamOverlay::everyTextThatDoesNotReadIsNamed()
{
    Params params;
    const QList<ParamError> errors = ParamOverlay::set(
        params, {{u"layout"_s, u"diagonal"_s}, {u"d-model"_s, u"many"_s}, {u"seed"_s, u"5"_s}, {u"base"_s, u"nan"_s}});
    QStringList keys;
    for (const ParamError &e : errors)
        keys.append(e.key);
    // In --help's order, each once.
    QCOMPARE(keys, (QStringList {u"d-model"_s, u"base"_s, u"layout"_s}));
    QCOMPARE(errors.front().given, std::optional<QString>(u"'many'"_s));
    QCOMPARE(params.seed, 5u);
    const auto refused = ParamOverlay::over(Params {}, {{u"layout"_s, u"diagonal"_s}, {u"d-model"_s, u"0"_s}});
    QVERIFY(std::holds_alternative<QList<ParamError>>(refused));
    // A text that does not read is said first; ranges are checked on a whole that reads.
    QCOMPARE(std::get<QList<ParamError>>(refused).size(), 1);
    QCOMPARE(std::get<QList<ParamError>>(refused).front().key, u"layout"_s);
}

void TestParamOverlay::aWholeThatIsNotSoundIsRefused()
{
    // Each value reads, but together they are out of range: every problem, each named.
    const auto refused = ParamOverlay::over(Params {}, {{u"d-model"_s, u"0"_s}, {u"dropout"_s, u"1.5"_s}});
    QVERIFY(std::holds_alternative<QList<ParamError>>(refused));
    QStringList keys;
    for (const ParamError &e : std::get<QList<ParamError>>(refused))
        keys.append(e.key);
    QVERIFY2(keys.contains(u"d-model"_s) && keys.contains(u"dropout"_s), qPrintable(keys.join(u' ')));
    // Sound over one base, not over another: pe_dims must fit in d_model.
    Params wide;
    wide.dModel = 1024;
    const ParamTexts concat = {{u"compose"_s, u"concat"_s}, {u"pe-dims"_s, u"600"_s}};
    QVERIFY(std::holds_alternative<Params>(ParamOverlay::over(wide, concat)));
    QVERIFY(std::holds_alternative<QList<ParamError>>(ParamOverlay::over(Params {}, concat)));
}

// Before: "--cache: must be an integer in [0, 1024] (max_len); got '1e3'" beside --max-len 8 (and
// the ids' 16 columns of posenc check --position-ids): the range of the default max_len, which a
// value typed within it would break. The range is the one the other texts give.
void TestParamOverlay::aTextThatDoesNotReadNamesTheRangeTheOthersAllow()
{
    Params params;
    const QList<ParamError> errors = ParamOverlay::set(params, {{u"cache"_s, u"1e3"_s}, {u"max-len"_s, u"8"_s}});
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.front().sentence(), u"must be an integer in [0, 8] (max_len); got '1e3'"_s);
}

POSENC_TEST_GUILESS_MAIN(TestParamOverlay)
} // namespace tst_paramoverlay
#include "tst_paramoverlay.moc"
