// The length an axis's label is wrapped to and measured against (FigureFit.h).
#include "FigureFit.h"

#include "FigureRoom.h"
#include "MeasuredText.h"
#include "ShorterLabels.h"

#include <QFontMetricsF>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::FigureFit {

double labelLength(const QCPAxis *axis)
{
    // A label is centred on its axis and may reach into the margins beside it, not past them; an
    // x axis's keeps a quarter of a line of its font clear of the page's left and right edges, where
    // its rect's margins end there (a y axis's ends are its plot's, and a plot that short holds no
    // more: mrope-positions' "position" at 6 x 4 cm).
    const QRect inner = axis->axisRect()->rect();
    const QRect outer = axis->axisRect()->outerRect();
    if (axis->orientation() == Qt::Vertical)
        return 2.0 * std::min(inner.center().y() - outer.top(), outer.bottom() - inner.center().y());
    const QRect page = axis->parentPlot()->viewport();
    const double clear = QFontMetricsF(axis->labelFont()).height() / 4.0;
    const double left = std::max<double>(outer.left(), page.left() + clear);
    // QRect's right() is a unit short of the edge.
    const double right = std::min<double>(outer.right(), page.left() + page.width() - clear);
    const double centre = inner.center().x();
    return std::max(0.0, 2.0 * std::min(centre - left, right - centre));
}

// The length `axis`'s label is wrapped to: labelLength's, or for an x axis the least of its row's
// (their plots' bottoms level) that show its label, so that they wrap alike (families' offset
// label whole under one column, in two lines under the other, its tick labels wider).
double rowLabelLength(const QCPAxis *axis, const QList<QCPAxisRect *> &rects)
{
    double length = labelLength(axis);
    if (axis->axisType() != QCPAxis::atBottom)
        return length;
    // The rects drawn level with its own first: a rect's axes are a list made at each call.
    const int bottom = axis->axisRect()->rect().bottom();
    std::optional<QString> given;
    for (QCPAxisRect *rect : rects) {
        if (!rect->realVisibility() || std::abs(rect->rect().bottom() - bottom) > 2)
            continue;
        for (const QCPAxis *other : rect->axes(QCPAxis::atBottom)) {
            if (other == axis || !other->visible())
                continue;
            if (!given)
                given = unwrappedLabel(axis).simplified();
            if (unwrappedLabel(other).simplified() == *given)
                length = std::min(length, labelLength(other));
        }
    }
    return length;
}

QMargins ownMargins(const QCPLegend *legend)
{
    // What keepClearOfEdges set, unless the margins were set since (FigureRoom's unfold).
    const QVariant set = legend->property("edgeSet");
    if (!set.isValid() || set.value<QMargins>() != legend->margins())
        return legend->margins();
    return legend->margins() - legend->property("edgeAdded").value<QMargins>();
}

// A legend in a row of the layout whose side is at the page's edge keeps up to a quarter of a line
// of its font clear of it, as an x axis's label does (labelLength), out of the `slack` its entries
// leave in its room at their wrap (fitLegend). Its wraps are chosen with its own margins
// (ownMargins), so that what this adds never makes it wrap again: a margin that did cost the
// curves' key at 6 x 4 cm its third column. float32-precision's key row, unfolded (FigureRoom),
// began 2 units from a 16:9 slide's left edge.
bool keepClearOfEdges(QCPLegend *legend, double slack)
{
    const QRect outer = legend->outerRect();
    if (!qobject_cast<const QCPLayoutGrid *>(legend->layout()) || outer.isEmpty())
        return false; // in its plot's inset, clear of the page by the plot's margins
    const QRect page = legend->parentPlot()->viewport();
    const int clear = int(std::ceil(QFontMetricsF(legend->font()).height() / 4.0));
    const QMargins own = ownMargins(legend);
    // QRect's right() is a unit short of the edge.
    const int leftGap = outer.left() - page.left();
    const int rightGap = page.left() + page.width() - 1 - outer.right();
    int spare = std::max(0, int(std::floor(slack)));
    const int moreLeft = std::clamp(clear - leftGap - own.left(), 0, spare);
    spare -= moreLeft;
    const int moreRight = std::clamp(clear - rightGap - own.right(), 0, spare);
    const QMargins added(moreLeft, 0, moreRight, 0);
    if (own + added == legend->margins())
        return false;
    legend->setMargins(own + added);
    legend->setProperty("edgeSet", QVariant::fromValue(own + added));
    legend->setProperty("edgeAdded", QVariant::fromValue(added));
    return true;
}

RowRooms::RowRooms(const QList<QCPTextElement *> &titles, double width)
    : m_width(width)
{
    m_titles.reserve(titles.size());
    for (const QCPTextElement *text : titles)
        m_titles.append(
            {text, ShorterLabels::ofText(text).size(), text->outerRect().top(), text->realVisibility(), {}});
}

double RowRooms::roomOf(Title &title)
{
    if (!title.room)
        title.room = roomFor(title.text, m_width);
    return *title.room;
}

double RowRooms::of(const QCPTextElement *text)
{
    const auto own = std::find_if(m_titles.begin(), m_titles.end(), [text](const Title &t) { return t.text == text; });
    if (own == m_titles.end())
        return roomFor(text, m_width);
    // Its row's titles of its kind: as many shorter forms (one figure's sentence, its numbers apart)
    // and their tops level.
    double room = roomOf(*own);
    if (own->forms <= 0)
        return room;
    for (Title &other : m_titles)
        if (other.text != text && other.drawn && other.forms == own->forms && std::abs(own->top - other.top) <= 2)
            room = std::min(room, roomOf(other));
    return room;
}

void RowRooms::forget()
{
    for (Title &title : m_titles)
        title.room.reset();
}

namespace {

// The separator of a title's parts, where it wraps first (as FigureFit.cpp's).
const QString kPartSeparator = u"  ·  "_s;

// Greedy lines of `pieces` joined by `joint`, each within `width` where a piece allows.
QStringList fill(const QStringList &pieces, const QString &joint, const QFont &font, double width)
{
    QStringList lines;
    for (const QString &piece : pieces) {
        if (!lines.isEmpty() && MeasuredText::advance(font, lines.constLast() + joint + piece) <= width)
            lines.last() += joint + piece;
        else
            lines.append(piece);
    }
    return lines;
}

// Whether `word` is an operator between two terms of a formula: "=", "+", "−", "×", "·", ...
bool isOperator(const QString &word)
{
    static const QStringList operators {u"="_s, u"+"_s, u"-"_s, u"−"_s, u"×"_s, u"·"_s, u"/"_s, u"*"_s, u"<"_s,
                                        u">"_s, u"≤"_s, u"≥"_s, u"≈"_s, u"≠"_s, u"→"_s, u"±"_s, u"…"_s};
    return operators.contains(word);
}

// Whether `word` is a number (its sign, digits and point, a closing bracket or punctuation after).
bool isNumber(const QString &word)
{
    static const QRegularExpression number(u"^[(\\[]?[−+-]?\\d[\\d.,]*%?[)\\]]*[.,;:]?$"_s);
    return number.match(word).hasMatch();
}

// How much deeper in brackets `word` leaves a text than it found it.
int depthChange(const QString &word)
{
    int depth = 0;
    for (const QChar c : word) {
        if (c == u'(' || c == u'[' || c == u'{' || c == u'⟨')
            ++depth;
        else if (c == u')' || c == u']' || c == u'}' || c == u'⟩')
            --depth;
    }
    return depth;
}

// `words` joined in runs that a line never breaks, as a careful author keeps them with a
// non-breaking space: a formula's terms with the operators between them ("(t + 1)", "hₜ = (x₀ + …
// + xₜ)/(t + 1)"), what stands inside brackets opened in it, and a number with the word before
// it ("is 0.335": a line of a lone number reads as a stray one).
QStringList unbrokenRuns(const QStringList &words)
{
    QStringList runs;
    int depth = 0;
    for (const QString &word : words) {
        const bool joined = !runs.isEmpty()
            && (depth > 0 || isOperator(word) || isOperator(runs.constLast().section(u' ', -1)) || isNumber(word));
        if (joined)
            runs.last() += u' ' + word;
        else
            runs.append(word);
        depth = std::max(0, depth + depthChange(word));
    }
    return runs;
}

// `lines` (filled greedily from `pieces` joined by spaces) with a last line of one short piece
// given the piece before it where both still hold: "…, so hₜ = (…)/(t + 1) and x = s·E carries no
// position" keeps two words at its end, not "position" alone. A last line of one piece is short
// where it takes less than a quarter of the line before it.
QStringList balancedLast(QStringList lines, const QFont &font, double width)
{
    if (lines.size() < 2)
        return lines;
    QString &before = lines[lines.size() - 2];
    QString &last = lines.last();
    const qsizetype space = before.lastIndexOf(u' ');
    if (last.contains(u' ') || space < 0
        || MeasuredText::advance(font, last) >= MeasuredText::advance(font, before) / 4.0)
        return lines;
    // The last piece of the line before: its last run, as unbrokenRuns joined them.
    const QStringList runs = unbrokenRuns(before.split(u' ', Qt::SkipEmptyParts));
    if (runs.size() < 2)
        return lines;
    const QString moved = runs.constLast() + u' ' + last;
    if (MeasuredText::advance(font, moved) > width)
        return lines;
    before = runs.mid(0, runs.size() - 1).join(u' ');
    last = moved;
    return lines;
}

} // namespace

QString wrap(const QString &text, const QFont &font, double width)
{
    QStringList lines;
    for (const QString &part : fill(text.split(kPartSeparator), kPartSeparator, font, width)) {
        if (MeasuredText::advance(font, part) <= width) {
            lines.append(part);
            continue;
        }
        // Its runs that a line never breaks (a formula, a number with its word), each a piece; a
        // run wider than the line in its words.
        QStringList pieces;
        for (const QString &run : unbrokenRuns(part.split(u' ', Qt::SkipEmptyParts)))
            pieces += MeasuredText::advance(font, run) <= width ? QStringList {run} : run.split(u' ');
        lines += balancedLast(fill(pieces, u" "_s, font, width), font, width);
    }
    return lines.join(u'\n');
}

} // namespace posenc::FigureFit
