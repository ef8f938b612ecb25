// The parameters dock's presets: listed with their source, a choice setting what it names, the
// chooser reading custom once a control moves without moving the controls, and a preset the
// settings refuse changing nothing; more presets than fit in its list are a scroll bar away.

#include "ControlInput.h"
#include "support/TestMain.h"

#include "gui/ControlPanel.h"

#include "core/ParamText.h"

#include "support/WindowFixture.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTest>

namespace tst_controlpanelpresets {
using namespace Qt::StringLiterals;
using namespace posenc;
using testing::setControl;

class TestControlPanelPresets : public QObject
{
    Q_OBJECT

private slots:
    void presetsAreListedWithTheirSource();
    void choosingAPresetSetsWhatItNames_data();
    void choosingAPresetSetsWhatItNames();
    void theChooserReadsCustomOnceAControlMoves();
    void aPresetTheSettingsRefuseChangesNothing();
    void choosingOrLeavingAPresetMovesNoControl();
    void theChooserScrollsALongList();
};

void TestControlPanelPresets::presetsAreListedWithTheirSource()
{
    ControlPanel panel;
    const auto *combo = panel.findChild<QComboBox *>(u"presetCombo"_s);
    QCOMPARE(combo->count(), panel.presets().size() + 1);
    QVERIFY(panel.presets().size() >= 6);
    QCOMPARE(combo->itemText(0), u"custom"_s);
    for (int i = 1; i < combo->count(); ++i) {
        const QString tip = combo->itemData(i, Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(panel.presets()[i - 1].source.toHtmlEscaped()), qPrintable(tip));
        QVERIFY2(tip.contains(u"Sets "_s), qPrintable(tip));
    }
    // The defaults are the paper's base model: the chooser says so, and names the source.
    QCOMPARE(combo->currentText(), u"Transformer base (Vaswani et al. 2017)"_s);
    // On one line, shortened to the panel's width: whole in its description and tooltip.
    panel.resize(900, panel.sizeHint().height());
    QVERIFY(WindowFixture::shown(panel));
    const auto *source = panel.findChild<QLabel *>(u"presetSource"_s);
    QVERIFY(source->isVisibleTo(&panel));
    const QString cite = u"Vaswani et al. 2017, sections 3.1, 3.4, 3.5, 5.4"_s;
    QCOMPARE(source->accessibleDescription(), cite);
    QVERIFY2(source->toolTip().contains(u"Vaswani et al. 2017"_s), qPrintable(source->toolTip()));
    QTRY_COMPARE(source->text(), cite);
}

void TestControlPanelPresets::choosingAPresetSetsWhatItNames_data()
{
    QTest::addColumn<QString>("title");
    QTest::addColumn<QStringList>("expected"); // key=text, as ParamText writes it after the choice
    QTest::newRow("paper big") << u"Transformer big (Vaswani et al. 2017)"_s
                               << QStringList {u"d-model=1024"_s, u"dropout=0.29999999999999999"_s,
                                               u"scale=sqrt"_s,   u"layout=interleaved"_s,
                                               u"max-len=1024"_s, u"seed=3"_s};
    QTest::newRow("annotated") << u"The Annotated Transformer (Harvard NLP)"_s
                               << QStringList {u"d-model=512"_s, u"max-len=5000"_s, u"angles=float32"_s,
                                               u"dropout=0.10000000000000001"_s, u"seed=3"_s};
    QTest::newRow("tensorflow") << u"TensorFlow Transformer tutorial"_s
                                << QStringList {u"layout=split"_s, u"max-len=2048"_s, u"d-model=512"_s,
                                                u"angles=exact"_s, u"seed=3"_s};
    QTest::newRow("fairseq") << u"fairseq embedding init"_s
                             << QStringList {u"init=scaled-normal"_s, u"scale=sqrt"_s, u"d-model=64"_s,
                                             u"dropout=0.5"_s, u"seed=3"_s};
    QTest::newRow("pytorch") << u"PyTorch nn.Embedding init"_s
                             << QStringList {u"init=normal"_s, u"scale=1"_s, u"d-model=64"_s, u"seed=3"_s};
}

void TestControlPanelPresets::choosingAPresetSetsWhatItNames()
{
    QFETCH(QString, title);
    QFETCH(QStringList, expected);
    ControlPanel panel;
    // Parameters no preset names (the seed), and some that only some name.
    setControl(panel, u"seedSpin"_s, u"3"_s);
    setControl(panel, u"dModelSpin"_s, u"64"_s);
    setControl(panel, u"dropoutSpin"_s, u"0.5"_s);
    auto *combo = panel.findChild<QComboBox *>(u"presetCombo"_s);
    const int index = combo->findText(title);
    QVERIFY2(index > 0, qPrintable(title));
    QSignalSpy spy(&panel, &ControlPanel::paramsChanged);
    combo->setCurrentIndex(index); // as a user's choice does
    QCOMPARE(spy.count(), 1);
    for (const QString &pair : expected)
        QCOMPARE(pair.section(u'=', 0, 0) + u"="_s + ParamText::get(panel.params(), pair.section(u'=', 0, 0)), pair);
    QCOMPARE(combo->currentIndex(), index);
    QCOMPARE(panel.activePreset(), index - 1);
    QVERIFY(!panel.hasErrors());
}

void TestControlPanelPresets::theChooserReadsCustomOnceAControlMoves()
{
    ControlPanel panel;
    auto *combo = panel.findChild<QComboBox *>(u"presetCombo"_s);
    combo->setCurrentIndex(combo->findText(u"TensorFlow Transformer tutorial"_s));
    QCOMPARE(combo->currentText(), u"TensorFlow Transformer tutorial"_s);
    // A parameter it does not name leaves it active.
    setControl(panel, u"seedSpin"_s, u"11"_s);
    QCOMPARE(combo->currentText(), u"TensorFlow Transformer tutorial"_s);
    // One it names moves away from it, even to values another preset has.
    setControl(panel, u"layoutCombo"_s, u"0"_s);
    QCOMPARE(combo->currentText(), u"custom"_s);
    QCOMPARE(panel.activePreset(), -1);
    QVERIFY(panel.findChild<QLabel *>(u"presetSource"_s)->text().isEmpty());
    // "custom" is what the chooser reads, not a choice.
    const auto *model = qobject_cast<const QStandardItemModel *>(combo->model());
    QVERIFY(model && !model->item(0)->isEnabled());
    // Parameters set from outside (a session) show the first preset they match.
    Params big;
    big.dModel = 1024;
    big.dropout = 0.3;
    panel.setParams(big);
    QCOMPARE(combo->currentText(), u"Transformer big (Vaswani et al. 2017)"_s);
}

void TestControlPanelPresets::aPresetTheSettingsRefuseChangesNothing()
{
    // A loaded matrix fixes d_model: a preset of another d_model is refused, and says why.
    ControlPanel panel;
    Params p;
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values = RowMatrixXf::Constant(1024, 768, 0.5f);
    matrix->source = u"wte.npy"_s;
    p.embeddings = matrix;
    p.dModel = 768;
    panel.setParams(p);
    QVERIFY(!panel.findChild<QWidget *>(u"dModelSpin"_s)->isEnabled());
    QVERIFY(panel.findChild<QWidget *>(u"dModelSpin"_s)->toolTip().contains(u"loaded matrix (768 columns)"_s));
    QVERIFY(!panel.findChild<QWidget *>(u"initCombo"_s)->isEnabled());
    QSignalSpy spy(&panel, &ControlPanel::paramsChanged);
    QVERIFY(!panel.choosePreset(0));
    QCOMPARE(spy.count(), 0);
    QVERIFY(panel.params() == p);
    const auto *error = panel.findChild<QLabel *>(u"presetError"_s);
    QVERIFY(error->isVisibleTo(&panel));
    QVERIFY2(error->text().contains(u"768 columns"_s), qPrintable(error->text()));
    QCOMPARE(panel.findChild<QComboBox *>(u"presetCombo"_s)->currentText(), u"custom"_s);
    // One that names no d_model applies.
    const auto &presets = panel.presets();
    const auto pytorch = std::find_if(presets.begin(), presets.end(),
                                      [](const Preset &x) { return x.title == u"PyTorch nn.Embedding init"_s; });
    QVERIFY(pytorch != presets.end());
    QVERIFY(panel.choosePreset(static_cast<int>(pytorch - presets.begin())));
    QCOMPARE(panel.params().scaleKind, ScaleKind::One);
    QVERIFY(!error->isVisibleTo(&panel));
}

// Choosing a preset whose source is long, then moving a control it names, leaves every control
// where it was: the source keeps its one line, empty or shortened.
void TestControlPanelPresets::choosingOrLeavingAPresetMovesNoControl()
{
    ControlPanel panel;
    panel.resize(420, panel.sizeHint().height());
    QVERIFY(WindowFixture::shown(panel));
    auto *combo = panel.findChild<QComboBox *>(u"presetCombo"_s);
    const auto *dModel = panel.findChild<QWidget *>(u"dModelSpin"_s);
    const auto *seed = panel.findChild<QWidget *>(u"seedSpin"_s);
    const auto where = [&] { return std::pair(dModel->mapTo(&panel, QPoint()), seed->mapTo(&panel, QPoint())); };
    QCoreApplication::processEvents();
    const auto before = where();
    // The longest source of the shipped presets of the sinusoid, whose controls stay: the
    // annotated transformer's, which took two lines.
    qsizetype longest = -1;
    for (qsizetype i = 0; i < panel.presets().size(); ++i) {
        const Preset &preset = panel.presets()[i];
        if (preset.params.value(u"encoding"_s, u"sinusoidal"_s) == u"sinusoidal"_s
            && (longest < 0 || preset.cite.size() > panel.presets()[longest].cite.size()))
            longest = i;
    }
    QVERIFY(longest >= 0);
    QVERIFY2(panel.fontMetrics().horizontalAdvance(panel.presets()[longest].cite) > 300,
             qPrintable(panel.presets()[longest].cite));
    combo->setCurrentIndex(int(longest) + 1);
    QCOMPARE(panel.activePreset(), int(longest));
    QCoreApplication::processEvents();
    QCOMPARE(where(), before);
    // Leaving it: d_model moves away from the preset.
    setControl(panel, u"dModelSpin"_s, QString::number(panel.params().dModel + 2));
    QCOMPARE(panel.activePreset(), -1);
    QCoreApplication::processEvents();
    QCOMPARE(where(), before);
}

// The style's own popup would take the screen's height and hide the presets past it behind a
// scroll arrow: the list shows a few dozen rows, with a scroll bar to the rest.
void TestControlPanelPresets::theChooserScrollsALongList()
{
    ControlPanel panel;
    QVERIFY(WindowFixture::shown(panel));
    auto *combo = panel.findChild<QComboBox *>(u"presetCombo"_s);
    QVERIFY(combo->count() > combo->maxVisibleItems());
    combo->showPopup();
    QAbstractItemView *list = combo->view();
    QTRY_VERIFY(list->isVisible());
    QVERIFY(list->verticalScrollBarPolicy() != Qt::ScrollBarAlwaysOff);
    QTRY_VERIFY(list->verticalScrollBar()->isVisible());
    QVERIFY(list->verticalScrollBar()->maximum() > 0);
    QVERIFY(list->window()->height() < combo->maxVisibleItems() * 2 * list->sizeHintForRow(1));
    combo->hidePopup();
}

POSENC_TEST_MAIN(TestControlPanelPresets)
} // namespace tst_controlpanelpresets
#include "tst_controlpanelpresets.moc"
