// The parameters dock: its defaults, every control changing its parameter, refused values shown
// with their reason, labels in the command line's words, controls the parameters ignore
// disabled with the reason, and tooltips giving the formula.

#include "ControlInput.h"
#include "support/TestMain.h"

#include "gui/ControlPanel.h"

#include "gui/Accessibility.h"
#include "gui/ParamLabels.h"
#include "gui/ParamTips.h"

#include "core/ParamTable.h"
#include "core/ParamText.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QHash>
#include <QHelpEvent>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

namespace tst_controlpanelparams {
using namespace Qt::StringLiterals;
using namespace posenc;
using testing::setControl;

namespace {

// Counts the tooltip changes of the objects it watches.
class TooltipChanges : public QObject
{
public:
    QHash<const QObject *, int> counts;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::ToolTipChange)
            ++counts[watched];
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

class TestControlPanelParams : public QObject
{
    Q_OBJECT

private slots:
    void showsTheDefaults();
    void everyControlChangesItsParameter_data();
    void everyControlChangesItsParameter();
    void invalidValueShowsItsReasonAndKeepsTheLastValid_data();
    void invalidValueShowsItsReasonAndKeepsTheLastValid();
    void newSeedDrawsAnotherSeed();
    void setParamsEmitsNothing();
    void labelsAreTheCommandLinesWords();
    void ignoredControlsAreDisabledAndSayWhy_data();
    void ignoredControlsAreDisabledAndSayWhy();
    void aRefusedValueKeepsItsControlEnabled();
    void tooltipsGiveTheFormula_data();
    void tooltipsGiveTheFormula();
    void ropeGroupShowsWhileRopeIsChosen();
    void aTooltipIsSetOnlyWhenItChanges();
    void tooltipsInViewWaitForTheControlsToRest();
    void aHiddenControlsTooltipIsWrittenWhenItShows();
};

void TestControlPanelParams::showsTheDefaults()
{
    ControlPanel panel;
    QVERIFY(panel.params() == Params {});
    QCOMPARE(panel.findChild<QSpinBox *>(u"dModelSpin"_s)->value(), 512);
    QCOMPARE(panel.findChild<QSpinBox *>(u"maxLenSpin"_s)->value(), 1024);
    QCOMPARE(panel.findChild<QSlider *>(u"maxLenSlider"_s)->value(), 100); // 2^10 on the log scale
    QVERIFY(!panel.hasErrors());
}

void TestControlPanelParams::everyControlChangesItsParameter_data()
{
    QTest::addColumn<QString>("before"); // "control=value" set first, or empty
    QTest::addColumn<QString>("control");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("expected"); // ParamText of the parameter afterwards
    const auto row
        = [](const char *name, const QString &before, const QString &control, const QString &value, const QString &key,
             const QString &expected) { QTest::newRow(name) << before << control << value << key << expected; };
    row("d_model spin", {}, u"dModelSpin"_s, u"64"_s, u"d-model"_s, u"64"_s);
    row("d_model slider", {}, u"dModelSlider"_s, u"100"_s, u"d-model"_s, u"100"_s);
    row("max_len spin", {}, u"maxLenSpin"_s, u"4096"_s, u"max-len"_s, u"4096"_s);
    row("max_len log slider", {}, u"maxLenSlider"_s, u"130"_s, u"max-len"_s, u"8192"_s);
    row("base", {}, u"baseEdit"_s, u"500"_s, u"base"_s, u"500"_s);
    row("layout", {}, u"layoutCombo"_s, u"1"_s, u"layout"_s, u"split"_s);
    row("angles", {}, u"anglesCombo"_s, u"1"_s, u"angles"_s, u"float32"_s);
    row("scale 1", {}, u"scaleCombo"_s, u"0"_s, u"scale"_s, u"1"_s);
    row("scale custom", u"scaleCombo=2"_s, u"scaleEdit"_s, u"2.5"_s, u"scale"_s, u"2.5"_s);
    row("init scaled", {}, u"initCombo"_s, u"1"_s, u"init"_s, u"scaled-normal"_s);
    row("init keras", {}, u"initCombo"_s, u"2"_s, u"init"_s, u"keras-uniform"_s);
    row("init custom", u"initCombo=3"_s, u"sigmaEdit"_s, u"0.5"_s, u"init"_s, u"0.5"_s);
    row("compose", {}, u"composeCombo"_s, u"1"_s, u"compose"_s, u"concat"_s);
    row("pe_dims", u"composeCombo=1"_s, u"peDimsSpin"_s, u"100"_s, u"pe-dims"_s, u"100"_s);
    row("dropout spin", {}, u"dropoutSpin"_s, u"0.25"_s, u"dropout"_s, u"0.25"_s);
    row("dropout slider", {}, u"dropoutSlider"_s, u"500"_s, u"dropout"_s, u"0.5"_s);
    row("dropout mode", {}, u"dropoutModeCombo"_s, u"3"_s, u"dropout-mode"_s, u"protect-special"_s);
    row("special", {}, u"specialEdit"_s, u"0,5,-1"_s, u"special"_s, u"0,5,-1"_s);
    row("seq_len", {}, u"seqLenSpin"_s, u"100"_s, u"seq-len"_s, u"100"_s);
    row("seed", {}, u"seedSpin"_s, u"42"_s, u"seed"_s, u"42"_s);
    row("eval", {}, u"evalCheck"_s, u"true"_s, u"eval"_s, u"true"_s);
    row("encoding rope", {}, u"encodingCombo"_s, u"3"_s, u"encoding"_s, u"rope"_s);
    row("head_dim", u"encodingCombo=3"_s, u"headDimSpin"_s, u"64"_s, u"head-dim"_s, u"64"_s);
    row("rope_theta", u"encodingCombo=3"_s, u"ropeThetaEdit"_s, u"500000"_s, u"rope-theta"_s, u"500000"_s);
    row("rope_type proportional", u"encodingCombo=3"_s, u"ropeTypeCombo"_s, u"6"_s, u"rope-type"_s, u"proportional"_s);
    row("rope_layout", u"encodingCombo=3"_s, u"ropeLayoutCombo"_s, u"1"_s, u"rope-layout"_s, u"interleaved"_s);
    row("rope_factor", u"encodingCombo=3"_s, u"ropeFactorEdit"_s, u"8"_s, u"rope-factor"_s, u"8"_s);
    row("rope_factor emptied", u"ropeFactorEdit=8"_s, u"ropeFactorEdit"_s, QString(), u"rope-factor"_s, u"unset"_s);
    row("original_max_len", {}, u"originalMaxLenSpin"_s, u"8192"_s, u"original-max-len"_s, u"8192"_s);
    row("original_max_len unset", u"originalMaxLenSpin=8192"_s, u"originalMaxLenSpin"_s, u"0"_s, u"original-max-len"_s,
        u"unset"_s);
    row("yarn_truncate", {}, u"yarnTruncateCombo"_s, u"1"_s, u"yarn-truncate"_s, u"false"_s);
    row("short_factor", {}, u"shortFactorEdit"_s, u"1.0700000524520874,1.5"_s, u"short-factor"_s,
        u"1.0700000524520874,1.5"_s);
    row("encoding alibi", {}, u"encodingCombo"_s, u"4"_s, u"encoding"_s, u"alibi"_s);
    row("heads", u"encodingCombo=4"_s, u"headsSpin"_s, u"12"_s, u"heads"_s, u"12"_s);
    row("head", u"encodingCombo=4"_s, u"headSpin"_s, u"8"_s, u"head"_s, u"8"_s);
    row("alibi symmetric", u"encodingCombo=4"_s, u"alibiCombo"_s, u"1"_s, u"alibi"_s, u"symmetric"_s);
    row("encoding t5", {}, u"encodingCombo"_s, u"5"_s, u"encoding"_s, u"t5"_s);
    row("t5 buckets", u"encodingCombo=5"_s, u"t5BucketsSpin"_s, u"64"_s, u"t5-buckets"_s, u"64"_s);
    row("t5 max distance", u"encodingCombo=5"_s, u"t5MaxDistanceSpin"_s, u"256"_s, u"t5-max-distance"_s, u"256"_s);
    row("t5 causal", u"encodingCombo=5"_s, u"t5CausalCheck"_s, u"true"_s, u"t5-causal"_s, u"true"_s);
    row("encoding deberta", {}, u"encodingCombo"_s, u"6"_s, u"encoding"_s, u"deberta"_s);
    row("deberta buckets", u"encodingCombo=6"_s, u"debertaBucketsSpin"_s, u"128"_s, u"deberta-buckets"_s, u"128"_s);
    row("deberta max position", u"encodingCombo=6"_s, u"debertaMaxPositionSpin"_s, u"1024"_s, u"deberta-max-position"_s,
        u"1024"_s);
}

void TestControlPanelParams::everyControlChangesItsParameter()
{
    QFETCH(QString, before);
    QFETCH(QString, control);
    QFETCH(QString, value);
    QFETCH(QString, key);
    QFETCH(QString, expected);
    ControlPanel panel;
    if (!before.isEmpty())
        setControl(panel, before.section(u'=', 0, 0), before.section(u'=', 1));
    QSignalSpy spy(&panel, &ControlPanel::paramsChanged);
    setControl(panel, control, value);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(ParamText::get(panel.params(), key), expected);
    QCOMPARE(ParamText::get(spy.last().at(0).value<Params>(), key), expected);
    QVERIFY(!panel.hasErrors());
}

void TestControlPanelParams::invalidValueShowsItsReasonAndKeepsTheLastValid_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("control");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("valid"); // a value that clears the error
    QTest::newRow("d_model 0") << QString() << u"dModelSpin"_s << u"0"_s << u"d-model"_s << u"8"_s;
    QTest::newRow("max_len 0") << QString() << u"maxLenSpin"_s << u"0"_s << u"max-len"_s << u"10"_s;
    QTest::newRow("base 1") << QString() << u"baseEdit"_s << u"1"_s << u"base"_s << u"100"_s;
    QTest::newRow("base text") << QString() << u"baseEdit"_s << u"ten"_s << u"base"_s << u"100"_s;
    QTest::newRow("scale negative") << u"scaleCombo=2"_s << u"scaleEdit"_s << u"-2"_s << u"scale"_s << u"3"_s;
    QTest::newRow("sigma nan") << u"initCombo=3"_s << u"sigmaEdit"_s << u"nan"_s << u"init"_s << u"0.1"_s;
    QTest::newRow("special out of range") << QString() << u"specialEdit"_s << u"0,5000"_s << u"special"_s << u"0,5"_s;
    QTest::newRow("seq_len past max_len") << QString() << u"seqLenSpin"_s << u"5000"_s << u"seq-len"_s << u"50"_s;
    QTest::newRow("pe_dims past d") << u"composeCombo=1"_s << u"peDimsSpin"_s << u"600"_s << u"pe-dims"_s << u"60"_s;
    QTest::newRow("head_dim odd") << QString() << u"headDimSpin"_s << u"63"_s << u"head-dim"_s << u"64"_s;
    QTest::newRow("rope_factor text") << QString() << u"ropeFactorEdit"_s << u"x"_s << u"rope-factor"_s << u"4"_s;
    QTest::newRow("short_factor zero") << QString() << u"shortFactorEdit"_s << u"1,0"_s << u"short-factor"_s
                                       << u"1,2"_s;
    QTest::newRow("head past heads") << u"encodingCombo=4"_s << u"headSpin"_s << u"9"_s << u"head"_s << u"8"_s;
    QTest::newRow("no heads") << u"encodingCombo=4"_s << u"headsSpin"_s << u"0"_s << u"heads"_s << u"4"_s;
    QTest::newRow("odd T5 buckets") << u"encodingCombo=5"_s << u"t5BucketsSpin"_s << u"33"_s << u"t5-buckets"_s
                                    << u"34"_s;
    QTest::newRow("T5 max distance within the exact buckets")
        << u"encodingCombo=5"_s << u"t5MaxDistanceSpin"_s << u"16"_s << u"t5-max-distance"_s << u"17"_s;
    QTest::newRow("odd DeBERTa buckets") << u"encodingCombo=6"_s << u"debertaBucketsSpin"_s << u"255"_s
                                         << u"deberta-buckets"_s << u"254"_s;
    QTest::newRow("DeBERTa max position too small")
        << u"encodingCombo=6"_s << u"debertaMaxPositionSpin"_s << u"129"_s << u"deberta-max-position"_s << u"130"_s;
    // linear needs its factor: the message sits beside the factor's field.
    QTest::newRow("linear without a factor")
        << u"encodingCombo=3"_s << u"ropeTypeCombo"_s << u"1"_s << u"rope-factor"_s << u"6"_s;
}

void TestControlPanelParams::invalidValueShowsItsReasonAndKeepsTheLastValid()
{
    QFETCH(QString, before);
    QFETCH(QString, control);
    QFETCH(QString, value);
    QFETCH(QString, key);
    QFETCH(QString, valid);
    ControlPanel panel;
    if (!before.isEmpty())
        setControl(panel, before.section(u'=', 0, 0), before.section(u'=', 1));
    const Params lastValid = panel.params();
    QSignalSpy spy(&panel, &ControlPanel::paramsChanged);
    setControl(panel, control, value);
    QCOMPARE(spy.count(), 0);
    QVERIFY(panel.params() == lastValid);
    QVERIFY(panel.hasErrors());
    const QString message = panel.errorText(key);
    QVERIFY2(message.contains(u"must"_s) || message.contains(u"expected"_s) || message.contains(u"positions"_s),
             qPrintable(u"beside %1: '%2'"_s.arg(key, message)));
    // Its label sits in the panel, not in a dialog.
    QVERIFY(panel.findChildren<QLabel *>().size() > 10);
    setControl(panel, control, valid);
    QCOMPARE(spy.count(), 1);
    QVERIFY(!panel.hasErrors());
    QVERIFY(panel.errorText(key).isEmpty());
}

void TestControlPanelParams::newSeedDrawsAnotherSeed()
{
    ControlPanel panel;
    QSignalSpy spy(&panel, &ControlPanel::paramsChanged);
    // The default seed is 0; a draw gives 0 again with probability 2^-31.
    panel.findChild<QAbstractButton *>(u"newSeedButton"_s)->click();
    QCOMPARE(spy.count(), 1);
    QVERIFY(panel.params().seed != 0);
}

void TestControlPanelParams::setParamsEmitsNothing()
{
    ControlPanel panel;
    QSignalSpy spy(&panel, &ControlPanel::paramsChanged);
    Params p;
    p.dModel = 33;
    p.dropout = 0.7;
    panel.setParams(p);
    QCOMPARE(spy.count(), 0);
    QVERIFY(panel.params() == p);
    QCOMPARE(panel.findChild<QSpinBox *>(u"dModelSpin"_s)->value(), 33);
    QCOMPARE(panel.findChild<QSlider *>(u"dropoutSlider"_s)->value(), 700);
}

void TestControlPanelParams::labelsAreTheCommandLinesWords()
{
    // Every label of the panel names a parameter as posenc --help does: the flag without its
    // dashes, written d_model, max_len, seq_len, pe_dims and "dropout mode".
    ControlPanel panel;
    const QStringList flags = ParamTable::flagKeys();
    int labels = 0;
    for (const QLabel *label : panel.findChildren<QLabel *>()) {
        if (!label->objectName().endsWith(u"Label"_s) || label->objectName() == u"presetLabel"_s)
            continue;
        const QString text = label->text().remove(u'&'); // a mnemonic's marker, not shown as such
        QString key = text;
        key.replace(u'_', u'-').replace(u' ', u'-');
        QVERIFY2(flags.contains(key),
                 qPrintable(u"%1 reads '%2', which is no flag of posenc --help"_s.arg(label->objectName(), text)));
        QCOMPARE(text, ParamLabels::label(key));
        ++labels;
    }
    // Every parameter but the memory budget has its row.
    QCOMPARE(labels, flags.size() - 1);
    // Errors use the same words.
    QCOMPARE(ParamLabels::text({u"dropout-mode"_s, u"one of sum"_s, {}, u"'x'"_s}),
             u"dropout mode: must be one of sum; got 'x'"_s);
    for (const char *key : {"scale", "init", "dropout", "eval", "pe-dims"})
        QVERIFY(!ParamLabels::label(QString::fromLatin1(key)).contains(u"sigma"_s));
}

void TestControlPanelParams::ignoredControlsAreDisabledAndSayWhy_data()
{
    QTest::addColumn<QString>("setup"); // "control=value;control=value", set first
    QTest::addColumn<QString>("control");
    QTest::addColumn<bool>("enabled");
    QTest::addColumn<QString>("why"); // in the tooltip
    const auto row = [](const char *name, const QString &setup, const QString &control, bool enabled,
                        const QString &why) { QTest::newRow(name) << setup << control << enabled << why; };
    row("eval: p", u"evalCheck=true"_s, u"dropoutSpin"_s, false, u"evaluation mode (eval) drops nothing"_s);
    row("eval: p slider", u"evalCheck=true"_s, u"dropoutSlider"_s, false, u"evaluation mode"_s);
    row("eval: p label", u"evalCheck=true"_s, u"dropoutLabel"_s, false, u"evaluation mode"_s);
    row("eval: seed draws E only", u"evalCheck=true"_s, u"seedSpin"_s, true, u"only the embeddings E"_s);
    row("eval: dropout mode stays for masked-fill", u"evalCheck=true"_s, u"dropoutModeCombo"_s, true,
        u"In evaluation mode only masked-fill changes Y"_s);
    row("eval, protect-special: special", u"dropoutModeCombo=3;evalCheck=true"_s, u"specialEdit"_s, false,
        u"evaluation mode"_s);
    row("sum: special", {}, u"specialEdit"_s, false, u"only dropout mode protect-special reads it; the mode is sum"_s);
    row("protect-special: special", u"dropoutModeCombo=3"_s, u"specialEdit"_s, true, u"protect-special"_s);
    row("protect-special p 0: special", u"dropoutModeCombo=3;dropoutSpin=0"_s, u"specialEdit"_s, false,
        u"dropout 0 drops nothing"_s);
    row("sum: seq_len", {}, u"seqLenSpin"_s, false, u"only dropout mode masked-fill"_s);
    row("masked-fill: seq_len", u"dropoutModeCombo=4"_s, u"seqLenSpin"_s, true, u"masked_fill"_s);
    row("protect-special 0,-1: seq_len", u"dropoutModeCombo=3"_s, u"seqLenSpin"_s, true, u"counts its negative"_s);
    row("sum: pe_dims", {}, u"peDimsSpin"_s, false, u"only compose concat"_s);
    row("concat: pe_dims", u"composeCombo=1"_s, u"peDimsSpin"_s, true, u"X = [s·E | PE]"_s);
    row("sqrt: custom scale", {}, u"scaleEdit"_s, false, u"only a custom scale reads it"_s);
    row("custom scale", u"scaleCombo=2"_s, u"scaleEdit"_s, true, u"X = s·E + PE"_s);
    row("normal: custom sigma", {}, u"sigmaEdit"_s, false, u"only a custom init reads it"_s);
    row("concat k = d: scale", u"composeCombo=1;peDimsSpin=512"_s, u"scaleCombo"_s, false,
        u"leaves no column for s·E"_s);
    row("concat k 0: base", u"composeCombo=1;peDimsSpin=0"_s, u"baseEdit"_s, false, u"leaves no column for the PE"_s);
    row("base always", u"evalCheck=true;dropoutModeCombo=4"_s, u"baseEdit"_s, true, u"b<sup>−2i/d</sup>"_s);
    row("angles always", u"evalCheck=true"_s, u"anglesCombo"_s, true, u"float32"_s);
    row("eval switch always", u"dropoutSpin=0"_s, u"evalCheck"_s, true, u"model.eval()"_s);
    row("sinusoidal: head_dim", {}, u"headDimSpin"_s, false, u"only encoding rope reads it"_s);
    row("rope: head_dim", u"encodingCombo=3"_s, u"headDimSpin"_s, true, u"head_dim"_s);
    row("rope: compose", u"encodingCombo=3"_s, u"composeCombo"_s, false, u"encoding rope adds no position term"_s);
    row("rope default: factor", u"encodingCombo=3"_s, u"ropeFactorEdit"_s, false,
        u"rope-type default does not read it"_s);
    row("rope default: beta_fast", u"encodingCombo=3"_s, u"betaFastEdit"_s, false, u"only yarn does"_s);
    row("rope proportional: factor", u"encodingCombo=3;ropeTypeCombo=6"_s, u"ropeFactorEdit"_s, true,
        u"proportional: every frequency divided by f"_s);
}

void TestControlPanelParams::ignoredControlsAreDisabledAndSayWhy()
{
    QFETCH(QString, setup);
    QFETCH(QString, control);
    QFETCH(bool, enabled);
    QFETCH(QString, why);
    ControlPanel panel;
    for (const QString &step : setup.split(u';', Qt::SkipEmptyParts))
        setControl(panel, step.section(u'=', 0, 0), step.section(u'=', 1));
    QVERIFY(!panel.hasErrors());
    const QWidget *w = panel.findChild<QWidget *>(control);
    QVERIFY2(w, qPrintable(control));
    QCOMPARE(w->isEnabled(), enabled);
    QVERIFY2(w->toolTip().contains(why), qPrintable(w->toolTip()));
    // A disabled control says that it is not used; an enabled one does not.
    QCOMPARE(w->toolTip().contains(u"Not used now"_s), !enabled);
}

void TestControlPanelParams::aRefusedValueKeepsItsControlEnabled()
{
    // special is ignored in dropout mode sum, but a special position outside the sequence is
    // refused whatever the mode: its field stays enabled so that it can be put right.
    ControlPanel panel;
    setControl(panel, u"specialEdit"_s, u"0,5000"_s);
    QVERIFY(panel.hasErrors());
    QVERIFY(panel.findChild<QWidget *>(u"specialEdit"_s)->isEnabled());
    setControl(panel, u"specialEdit"_s, u"0,5"_s);
    QVERIFY(!panel.hasErrors());
    QVERIFY(!panel.findChild<QWidget *>(u"specialEdit"_s)->isEnabled());
}

void TestControlPanelParams::tooltipsGiveTheFormula_data()
{
    QTest::addColumn<QString>("control");
    QTest::addColumn<QString>("formula");
    QTest::addColumn<QString>("flag");
    QTest::newRow("base") << u"baseEdit"_s << u"w<sub>i</sub> = b<sup>−2i/d</sup>"_s << u"--base"_s;
    QTest::newRow("scale") << u"scaleCombo"_s << u"X = s·E + PE"_s << u"--scale"_s;
    QTest::newRow("init") << u"initCombo"_s << u"E ~ N(0, σ²)"_s << u"--init"_s;
    QTest::newRow("dropout") << u"dropoutSpin"_s << u"Y = M ⊙ X / (1 − p), M ~ Bernoulli(1 − p)"_s << u"--dropout"_s;
    QTest::newRow("dropout mode") << u"dropoutModeCombo"_s << u"Y = dropout(s·E) + PE"_s << u"--dropout-mode"_s;
    QTest::newRow("compose") << u"composeCombo"_s << u"X = [s·E | PE]"_s << u"--compose"_s;
    QTest::newRow("layout") << u"layoutCombo"_s << u"column 2i holds sin(p·w<sub>i</sub>)"_s << u"--layout"_s;
    QTest::newRow("seq_len") << u"seqLenSpin"_s << u"attention_mask == 0"_s << u"--seq-len"_s;
    QTest::newRow("seed") << u"seedSpin"_s << u"(seed, p, j)"_s << u"--seed"_s;
    QTest::newRow("eval") << u"evalCheck"_s << u"Y = X"_s << u"--eval"_s;
    QTest::newRow("rope_theta") << u"ropeThetaEdit"_s << u"θ<sub>i</sub> = θ<sup>−2i/r</sup>"_s << u"--rope-theta"_s;
    QTest::newRow("original_max_len") << u"originalMaxLenSpin"_s << u"original_max_position_embeddings"_s
                                      << u"--original-max-len N|unset"_s;
}

void TestControlPanelParams::tooltipsGiveTheFormula()
{
    QFETCH(QString, control);
    QFETCH(QString, formula);
    QFETCH(QString, flag);
    ControlPanel panel;
    const QString tip = panel.findChild<QWidget *>(control)->toolTip();
    QVERIFY2(tip.contains(formula), qPrintable(tip));
    QVERIFY2(tip.contains(flag), qPrintable(tip));
}

void TestControlPanelParams::ropeGroupShowsWhileRopeIsChosen()
{
    ControlPanel panel;
    const auto *heading = panel.findChild<QLabel *>(u"headDimHeading"_s);
    QVERIFY(heading);
    QCOMPARE(heading->text(), u"RoPE"_s);
    const QStringList ropeFields
        = {u"headDimSpin"_s, u"ropeTypeCombo"_s, u"ropeFactorEdit"_s, u"originalMaxLenSpin"_s, u"longFactorEdit"_s};
    QVERIFY(!heading->isVisibleTo(&panel));
    for (const QString &name : ropeFields)
        QVERIFY2(!panel.findChild<QWidget *>(name)->isVisibleTo(&panel), qPrintable(name));
    QVERIFY(panel.findChild<QWidget *>(u"baseEdit"_s)->isVisibleTo(&panel));
    setControl(panel, u"encodingCombo"_s, u"3"_s);
    QVERIFY(!panel.hasErrors());
    QVERIFY(heading->isVisibleTo(&panel));
    for (const QString &name : ropeFields)
        QVERIFY2(panel.findChild<QWidget *>(name)->isVisibleTo(&panel), qPrintable(name));
    QVERIFY(!panel.findChild<QWidget *>(u"baseEdit"_s)->isVisibleTo(&panel));
    // An unset number shows as its placeholder, and the spin box of an unset length reads "unset".
    const auto *factor = panel.findChild<QLineEdit *>(u"ropeFactorEdit"_s);
    QVERIFY(factor->text().isEmpty());
    QCOMPARE(factor->placeholderText(), u"unset"_s);
    QCOMPARE(panel.findChild<QSpinBox *>(u"originalMaxLenSpin"_s)->text(), u"unset"_s);
    QCOMPARE(panel.findChild<QLineEdit *>(u"shortFactorEdit"_s)->placeholderText(), u"none"_s);
}

// A change of parameters sets a control's tooltip only where its text changes: each set is an
// event, and the control's description is read anew from the tooltip's HTML (Accessibility).
void TestControlPanelParams::aTooltipIsSetOnlyWhenItChanges()
{
    ControlPanel panel;
    QWidget *special = panel.findChild<QWidget *>(u"specialEdit"_s);
    QWidget *base = panel.findChild<QWidget *>(u"baseEdit"_s);
    TooltipChanges changes;
    special->installEventFilter(&changes);
    base->installEventFilter(&changes);
    const QString specialBefore = special->toolTip(), baseBefore = base->toolTip();
    setControl(panel, u"dropoutModeCombo"_s, u"3"_s); // protect-special: special is read now
    QVERIFY(!panel.hasErrors());
    QVERIFY(special->toolTip() != specialBefore);
    QCOMPARE(changes.counts.value(special), 1);
    QCOMPARE(base->toolTip(), baseBefore);
    QCOMPARE(changes.counts.value(base), 0);
}

// On screen, the controls of another family are hidden: a change leaves their tooltips alone, and each
// is written for the parameters of the controls when it shows, its description with it.
void TestControlPanelParams::aHiddenControlsTooltipIsWrittenWhenItShows()
{
    Accessibility::install();
    ControlPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    // RoPE's rows, hidden under the sinusoid: each with the widget its object name gives.
    QList<std::pair<QString, QWidget *>> rope;
    for (const ParamSpec &row : ParamTable::rows()) {
        if (!row.isFlag || row.family != Encoding::Rope)
            continue;
        for (const QString &suffix : {u"Spin"_s, u"Edit"_s, u"Combo"_s, u"Check"_s}) {
            if (auto *w = panel.findChild<QWidget *>(row.objectName + suffix)) {
                rope.append({row.key, w});
                break;
            }
        }
    }
    QVERIFY(rope.size() > 5);
    TooltipChanges changes;
    for (const auto &[key, w] : std::as_const(rope)) {
        QVERIFY2(!w->isVisible(), qPrintable(key));
        w->installEventFilter(&changes);
    }
    // Parameters given (a preset, a session) move their tooltips (head_dim's "Now r = 32"), yet none
    // is set while they are hidden.
    const Params before = panel.params();
    Params next = before;
    next.rope.headDim = 32;
    panel.setParams(next);
    QVERIFY(ParamTips::tooltip(u"head-dim"_s, before) != ParamTips::tooltip(u"head-dim"_s, next));
    QVERIFY(changes.counts.isEmpty());
    setControl(panel, u"encodingCombo"_s, u"3"_s);
    QVERIFY(!panel.hasErrors());
    for (const auto &[key, w] : std::as_const(rope)) {
        QVERIFY2(w->isVisible(), qPrintable(key));
        QCOMPARE(w->toolTip(), ParamTips::tooltip(key, panel.params()));
        QCOMPARE(w->accessibleDescription(), Accessibility::plainText(w->toolTip()));
    }
}

// While a control moves, the tooltips of the controls in view (worded, and described again from
// their HTML, at every step) wait for the controls to rest; the one hovered is worded at once.
void TestControlPanelParams::tooltipsInViewWaitForTheControlsToRest()
{
    Accessibility::install();
    ControlPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    setControl(panel, u"dModelSpin"_s, u"520"_s);
    QVERIFY(!panel.hasErrors());
    const Params before = panel.params();
    Params after = before;
    after.dModel = 528;
    // The controls in view whose tooltips the width moves (a choice's custom number has a field of its
    // own, under its own key).
    QList<std::pair<QString, QWidget *>> moved;
    for (const ParamSpec &row : ParamTable::rows()) {
        if (!row.isFlag || row.kind == ParamKind::ChoiceOrNumber)
            continue;
        for (const QString &suffix : {u"Spin"_s, u"Edit"_s, u"Combo"_s, u"Check"_s}) {
            auto *w = panel.findChild<QWidget *>(row.objectName + suffix);
            if (w && w->isVisible() && ParamTips::tooltip(row.key, before) != ParamTips::tooltip(row.key, after)) {
                moved.append({row.key, w});
                break;
            }
        }
    }
    QVERIFY(!moved.isEmpty());
    for (const auto &[key, w] : std::as_const(moved))
        QTRY_COMPARE(w->toolTip(), ParamTips::tooltip(key, before));
    setControl(panel, u"dModelSpin"_s, u"528"_s);
    QCOMPARE(panel.params().dModel, after.dModel);
    for (const auto &[key, w] : std::as_const(moved))
        QCOMPARE(w->toolTip(), ParamTips::tooltip(key, before));
    const auto &[hoveredKey, hovered] = moved.front();
    QHelpEvent hover(QEvent::ToolTip, QPoint(2, 2), hovered->mapToGlobal(QPoint(2, 2)));
    QApplication::sendEvent(hovered, &hover);
    QCOMPARE(hovered->toolTip(), ParamTips::tooltip(hoveredKey, after));
    for (const auto &[key, w] : std::as_const(moved)) {
        QTRY_COMPARE(w->toolTip(), ParamTips::tooltip(key, after));
        QCOMPARE(w->accessibleDescription(), Accessibility::plainText(w->toolTip()));
    }
}

POSENC_TEST_MAIN(TestControlPanelParams)
} // namespace tst_controlpanelparams
#include "tst_controlpanelparams.moc"
