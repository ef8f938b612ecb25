// A named model within a lesson's sentences (docs/ARCHITECTURE.md, Lessons): a preset whose name is a
// description ("TensorFlow Transformer tutorial", "SD 1.5 UNet timestep embedding") takes "the",
// and a title's own "The" (the Annotated Transformer) is lower case but at a sentence's start.
#include "LessonRead.h"
#include "ModelPossessive.h"
#include "support/TestMain.h"

#include "io/Lesson.h"
#include "io/Preset.h"

#include <QRegularExpression>
#include <QTest>

#include <algorithm>

namespace tst_lessonarticle {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestLessonArticle : public QObject
{
    Q_OBJECT

private slots:
    void aSentenceNamesADescriptionWithItsArticle();
};

// why-sqrt-d read "At TensorFlow Transformer tutorial's s = 22.6" and "At The Annotated
// Transformer's s": a name that is a description takes "the" within a sentence (its preset's
// "article"), a title's "The" is lower case there, and a sentence's start capitalises either.
void TestLessonArticle::aSentenceNamesADescriptionWithItsArticle()
{
    int described = 0, titled = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const QString name = ModelPossessive::head(preset.modelName());
        if (preset.article.isEmpty() && !name.startsWith(u"The "_s))
            continue;
        for (const Lesson &lesson : Lessons::all()) {
            const LessonOptions::Read r = LessonRead::readFor(lesson, {u"--preset"_s, preset.name});
            if (r.result.exitCode() != 0)
                continue;
            const QString plain = LessonRead::textOf(lesson, r);
            const QString what = preset.name + u" in "_s + lesson.name + u": "_s + plain;
            const QString bare = name.startsWith(u"The "_s) ? name.mid(4) : name;
            // Every mention has its article before it: "the" within a sentence, "The" at its start
            // (LessonText::plain joins the items with nothing between them).
            for (qsizetype at = plain.indexOf(bare); at >= 0; at = plain.indexOf(bare, at + 1)) {
                const QString before = plain.mid(std::max<qsizetype>(0, at - 4), std::min<qsizetype>(at, 4));
                QVERIFY2(before == u"the "_s || before == u"The "_s, qPrintable(what));
                if (before == u"The "_s) {
                    static const QRegularExpression start(u"(?:^|[.!?]\\s*)$"_s);
                    QVERIFY2(start.match(plain.left(at - 4)).hasMatch(), qPrintable(what));
                }
                (preset.article.isEmpty() ? titled : described) += 1;
            }
        }
    }
    // The TensorFlow tutorial, fairseq's and PyTorch's inits, the diffusion timestep embeddings; the
    // Annotated Transformer.
    QVERIFY(described >= 10 && titled >= 3);
}

POSENC_TEST_GUILESS_MAIN(TestLessonArticle)
} // namespace tst_lessonarticle
#include "tst_lessonarticle.moc"
