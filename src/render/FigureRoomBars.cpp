#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include "AxesInOrder.h"
#include "FigureFit.h"
#include "MeasuredText.h"
#include "ShorterLabels.h"

#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

// The colour bars' and axes' labels, and the tick labels of words, of a figure on little room (docs/ARCHITECTURE.md,
// "Figures at any size").
namespace posenc::FigureRoom::Steps {

bool shortenBarLabels(QCustomPlot *plot)
{
    // As an axis's label keeps its first part (shortenAxisLabels): a bar's label down its side
    // takes a column of the figure's width for each line it is wrapped to.
    static const QStringList separators {u" ("_s, u" = "_s, u": "_s, u", "_s};
    bool changed = false;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *scale = qobject_cast<QCPColorScale *>(element);
        if (!scale || !scale->realVisibility() || Changes::isHidden(scale))
            continue;
        QCPAxis *axis = scale->axis();
        if (!axis->label().contains(u'\n') || axis->property(kFoldedProperty).isValid())
            continue;
        const QString shown = shortestTrue(axis, separators);
        if (shown != FigureFit::unwrappedLabel(axis))
            changed |= Changes::of(plot).setAxisLabel(axis, shown);
    }
    return changed;
}

bool axisLabelsInOneLine(QCustomPlot *plot)
{
    bool changed = false;
    QList<QCPAxis *> axes;
    for (QCPAxisRect *rect : plot->axisRects())
        if (!Changes::isHidden(rect))
            axes += axesInOrder(*rect);
    for (QCPAxis *axis : axes) {
        if (!axis->visible() || !axis->label().contains(u'\n') || axis->property(kFoldedProperty).isValid())
            continue;
        // The length FigureFit wraps the label to (fitAxisLabel): centred on its axis, into the
        // margins beside it and not past them, nor near the page's edges.
        const double length = FigureFit::labelLength(axis);
        const QString whole = QString(FigureFit::unwrappedLabel(axis)).replace(u'\n', u' ');
        QString shown = shortened(whole, axis->labelFont(), length, 1);
        // A shorter form its figure gives, whole, before the whole's first words cut.
        const QStringList forms = ShorterLabels::of(axis);
        const auto holds = std::find_if(forms.begin(), forms.end(), [&](const QString &form) {
            return MeasuredText::advance(axis->labelFont(), form) <= length;
        });
        if (shown != whole && holds != forms.end())
            shown = *holds;
        if (shown != FigureFit::unwrappedLabel(axis) && !shown.contains(u'\n'))
            changed |= Changes::of(plot).setAxisLabel(axis, shown);
    }
    return changed;
}

namespace {

// `label`'s first `count` words with the separators between them ("Llama-4" of "Llama-4-Scout").
QString firstWords(const QString &label, int count)
{
    static const QRegularExpression separator(u"[ \\-_/]+"_s);
    QRegularExpressionMatchIterator at = separator.globalMatch(label);
    for (int words = 1; at.hasNext(); ++words) {
        const QRegularExpressionMatch match = at.next();
        if (words == count)
            return label.left(match.capturedStart());
    }
    return label;
}

// Each of `lines` too wide for `most` as its first whole words that no other of `lines` begins with
// ("Llama", "Gemma", "DeepSeek" of the head map's models), where they fit; else elided.
void shortenLines(QMap<double, QString> &lines, const QFontMetricsF &metrics, double most)
{
    const QStringList whole = lines.values();
    for (QString &line : lines) {
        if (metrics.horizontalAdvance(line) <= most)
            continue;
        const QString own = line;
        QString shown;
        for (int count = 1; shown.isEmpty(); ++count) {
            const QString words = firstWords(own, count);
            const bool alone = std::none_of(whole.begin(), whole.end(), [&](const QString &other) {
                return other != own && firstWords(other, count) == words;
            });
            if (alone || words == own)
                shown = words;
        }
        line = shown != own && metrics.horizontalAdvance(shown) <= most
            ? shown
            : metrics.elidedText(own, Qt::ElideRight, most);
    }
}

// Each of `labels` too wide for `most`, line by line: a label drawn in lines is as wide as its
// widest line (QCPAxisPainterPrivate draws each under the other), so each line is held to `most`
// alone and told apart from the lines in its place of the other labels ("chunked" and
// "interleaved" whole over "(Qwen2" and "(Qwen3"), not the lines measured end to end as one.
void shortenWordLabels(QMap<double, QString> &labels, const QFontMetricsF &metrics, double most)
{
    qsizetype rows = 0;
    for (const QString &label : std::as_const(labels))
        rows = std::max(rows, label.count(u'\n') + 1);
    QMap<double, QStringList> split;
    for (auto at = labels.cbegin(); at != labels.cend(); ++at)
        split.insert(at.key(), at.value().split(u'\n'));
    for (qsizetype row = 0; row < rows; ++row) {
        QMap<double, QString> lines;
        for (auto at = split.cbegin(); at != split.cend(); ++at)
            if (row < at.value().size())
                lines.insert(at.key(), at.value()[row]);
        shortenLines(lines, metrics, most);
        for (auto at = lines.cbegin(); at != lines.cend(); ++at)
            split[at.key()][row] = at.value();
    }
    for (auto at = split.cbegin(); at != split.cend(); ++at)
        labels[at.key()] = at.value().join(u'\n');
}

} // namespace

bool elideTickLabels(QCustomPlot *plot)
{
    // A label of words on a tick (a model's name) takes at most a quarter of the figure's width:
    // its first words that tell it from the others, as an author names a row, else elided.
    const double most = std::max(plot->viewport().width() / 4.0, 24.0);
    bool changed = false;
    QList<QCPAxis *> axes;
    for (QCPAxisRect *rect : plot->axisRects())
        if (!Changes::isHidden(rect))
            axes += axesInOrder(*rect);
    for (QCPAxis *axis : axes) {
        auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
        if (!ticker || !axis->visible() || !axis->tickLabels())
            continue;
        QMap<double, QString> labels = ticker->ticks();
        shortenWordLabels(labels, QFontMetricsF(axis->tickLabelFont()), most);
        changed |= Changes::of(plot).relabelTicks(axis, labels);
    }
    return changed;
}

} // namespace posenc::FigureRoom::Steps

namespace posenc::FigureRoom {

bool oneLabelFormPerRow(QCustomPlot *plot)
{
    Changes *changes = Changes::find(*plot);
    if (!changes)
        return false; // laid out as its figure made it: each label whole
    QList<QCPAxis *> axes;
    for (QCPAxisRect *rect : plot->axisRects())
        if (rect->realVisibility() && !Changes::isHidden(rect) && !dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            if (QCPAxis *axis = rect->axis(QCPAxis::atBottom); axis->visible() && !axis->label().isEmpty())
                axes.append(axis);
    const auto shown = [](const QCPAxis *axis) {
        QString text = QString(FigureFit::unwrappedLabel(axis)).replace(u'\n', u' ');
        if (text.endsWith(u'…'))
            text.chop(1);
        return text.trimmed();
    };
    // Labels of one row and one kind: their axes level, one the other's first words or both forms
    // of one label its figure gives.
    const auto alike = [&](const QCPAxis *a, const QCPAxis *b) {
        if (std::abs(a->axisRect()->rect().bottom() - b->axisRect()->rect().bottom()) > 2)
            return false;
        const QString x = shown(a), y = shown(b);
        const QStringList forms = ShorterLabels::of(a);
        return x.startsWith(y) || y.startsWith(x) || (!forms.isEmpty() && forms == ShorterLabels::of(b));
    };
    bool changed = false;
    for (QCPAxis *axis : std::as_const(axes)) {
        const QCPAxis *shortest = axis;
        for (const QCPAxis *other : std::as_const(axes))
            if (other != axis && alike(axis, other)
                && MeasuredText::advance(other->labelFont(), FigureFit::unwrappedLabel(other))
                    < MeasuredText::advance(shortest->labelFont(), FigureFit::unwrappedLabel(shortest)))
                shortest = other;
        if (shortest != axis)
            changed |= changes->setAxisLabel(axis, FigureFit::unwrappedLabel(shortest));
    }
    return changed;
}

} // namespace posenc::FigureRoom
