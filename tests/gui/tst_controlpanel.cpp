#include "gui/ControlPanel.h"

#include "core/ParamText.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// Sets a control as a user would: typing into a field ends with editingFinished.
void setControl(ControlPanel &panel, const QString &name, const QString &value)
{
    QWidget *w = panel.findChild<QWidget *>(name);
    QVERIFY2(w, qPrintable(name));
    if (auto *spin = qobject_cast<QSpinBox *>(w))
        spin->setValue(value.toInt());
    else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(w))
        dspin->setValue(value.toDouble());
    else if (auto *slider = qobject_cast<QSlider *>(w))
        slider->setValue(value.toInt());
    else if (auto *combo = qobject_cast<QComboBox *>(w))
        combo->setCurrentIndex(value.toInt());
    else if (auto *edit = qobject_cast<QLineEdit *>(w)) {
        edit->setText(value);
        emit edit->editingFinished();
    } else if (auto *button = qobject_cast<QAbstractButton *>(w))
        button->setChecked(value == u"true"_s);
    else
        QFAIL(qPrintable(u"no way to set "_s + name));
}

} // namespace

class TestControlPanel : public QObject
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
};

void TestControlPanel::showsTheDefaults()
{
    ControlPanel panel;
    QVERIFY(panel.params() == Params {});
    QCOMPARE(panel.findChild<QSpinBox *>(u"dModelSpin"_s)->value(), 512);
    QCOMPARE(panel.findChild<QSpinBox *>(u"maxLenSpin"_s)->value(), 1024);
    QCOMPARE(panel.findChild<QSlider *>(u"maxLenSlider"_s)->value(), 100); // 2^10 on the log scale
    QVERIFY(!panel.hasErrors());
}

void TestControlPanel::everyControlChangesItsParameter_data()
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
    row("init custom", u"initCombo=2"_s, u"sigmaEdit"_s, u"0.5"_s, u"init"_s, u"0.5"_s);
    row("compose", {}, u"composeCombo"_s, u"1"_s, u"compose"_s, u"concat"_s);
    row("pe_dims", u"composeCombo=1"_s, u"peDimsSpin"_s, u"100"_s, u"pe-dims"_s, u"100"_s);
    row("dropout spin", {}, u"dropoutSpin"_s, u"0.25"_s, u"dropout"_s, u"0.25"_s);
    row("dropout slider", {}, u"dropoutSlider"_s, u"500"_s, u"dropout"_s, u"0.5"_s);
    row("variant", {}, u"dropoutModeCombo"_s, u"2"_s, u"dropout-mode"_s, u"protect-special"_s);
    row("special", {}, u"specialEdit"_s, u"0,5,-1"_s, u"special"_s, u"0,5,-1"_s);
    row("seq_len", {}, u"seqLenSpin"_s, u"100"_s, u"seq-len"_s, u"100"_s);
    row("seed", {}, u"seedSpin"_s, u"42"_s, u"seed"_s, u"42"_s);
    row("evaluation", {}, u"evaluationRadio"_s, u"true"_s, u"eval"_s, u"true"_s);
}

void TestControlPanel::everyControlChangesItsParameter()
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

void TestControlPanel::invalidValueShowsItsReasonAndKeepsTheLastValid_data()
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
    QTest::newRow("sigma nan") << u"initCombo=2"_s << u"sigmaEdit"_s << u"nan"_s << u"init"_s << u"0.1"_s;
    QTest::newRow("special out of range") << QString() << u"specialEdit"_s << u"0,5000"_s << u"special"_s << u"0,5"_s;
    QTest::newRow("seq_len past max_len") << QString() << u"seqLenSpin"_s << u"5000"_s << u"seq-len"_s << u"50"_s;
    QTest::newRow("pe_dims past d") << u"composeCombo=1"_s << u"peDimsSpin"_s << u"600"_s << u"pe-dims"_s << u"60"_s;
}

void TestControlPanel::invalidValueShowsItsReasonAndKeepsTheLastValid()
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

void TestControlPanel::newSeedDrawsAnotherSeed()
{
    ControlPanel panel;
    QSignalSpy spy(&panel, &ControlPanel::paramsChanged);
    // The default seed is 0; a draw gives 0 again with probability 2^-31.
    panel.findChild<QAbstractButton *>(u"newSeedButton"_s)->click();
    QCOMPARE(spy.count(), 1);
    QVERIFY(panel.params().seed != 0);
}

void TestControlPanel::setParamsEmitsNothing()
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

QTEST_MAIN(TestControlPanel)
#include "tst_controlpanel.moc"
