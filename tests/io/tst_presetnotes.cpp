// What a shipped preset's note says of how its model computes agrees with the parameters it sets:
// a note names the precision its model's code forms the sinusoid's angles in (float32, or float64
// where the code, or a paper's formula, works in double), and the preset's angles is that one. The
// Whisper preset's note said float32 while it set angles exact, and the float32 lesson then told
// that Whisper formed its angles in double.
#include "io/Preset.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace posenc;

class TestPresetNotes : public QObject
{
    Q_OBJECT

private slots:
    void aNoteNamesThePrecisionItsAnglesSet_data();
    void aNoteNamesThePrecisionItsAnglesSet();
};

void TestPresetNotes::aNoteNamesThePrecisionItsAnglesSet_data()
{
    QTest::addColumn<QString>("name");
    int rows = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        if (preset.params.contains(u"angles"_s)) {
            QTest::newRow(qPrintable(preset.name)) << preset.name;
            ++rows;
        }
    }
    QVERIFY(rows >= 5); // the paper's two, the Annotated Transformer, TensorFlow's tutorial, Whisper
}

void TestPresetNotes::aNoteNamesThePrecisionItsAnglesSet()
{
    QFETCH(QString, name);
    const Preset *preset = Presets::find(name);
    QVERIFY(preset);
    const bool single = preset->note.contains(u"float32"_s);
    const bool twice = preset->note.contains(u"float64"_s) || preset->note.contains(u"double"_s);
    QVERIFY2(single != twice, qPrintable(u"the note names one precision: "_s + preset->note));
    QCOMPARE(preset->params.value(u"angles"_s), single ? u"float32"_s : u"exact"_s);
}

QTEST_GUILESS_MAIN(TestPresetNotes)
#include "tst_presetnotes.moc"
