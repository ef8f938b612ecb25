#include "LessonPanel.h"

#include "ComputeScheduler.h"

#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QStyle>
#include <QTextDocument>
#include <QTextFrame>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtMath>

#include <algorithm>
#include <limits>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A label of wrapped rich text whose height for a width is remembered until its text or font
// changes: the dock's layouts ask it for several widths at each resize (its scroll area's, with and
// without a scroll bar, the dock's own), and QLabel lays the whole text out anew for each, a
// quarter of the GUI thread's work in opening a lesson. A width not asked before is measured in a
// document of the label's own, laid out once at that width: QLabel's own (QLabelPrivate::sizeForWidth)
// lays its document out at the width and again at the width it shows, and the first time after a
// new text three times more (QLabelPrivate::ensureTextLayouted), each layout shaping every run of
// the text again (LessonRoom::textExtent asks several widths in one slot).
class WrappedLabel : public QLabel
{
public:
    int heightForWidth(int width) const override
    {
        constexpr qsizetype kMaxWidths = 256; // a dock dragged wider passes through every width
        if (const QString shown = text(); shown != m_measured || m_heights.size() >= kMaxWidths) {
            if (shown != m_measured)
                m_document.reset();
            m_heights.clear();
            m_measured = shown;
        }
        if (const auto found = m_heights.constFind(width); found != m_heights.cend())
            return *found;
        const int height = measure(width);
        m_heights.insert(width, height);
        return height;
    }

protected:
    void changeEvent(QEvent *event) override
    {
        if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange
            || event->type() == QEvent::LayoutDirectionChange) {
            m_heights.clear();
            m_document.reset();
        }
        QLabel::changeEvent(event);
    }

private:
    // QLabelPrivate::sizeForWidth's height (Qt 6, qlabel.cpp) for a word-wrapped rich text without
    // margin, indent or frame: the document of QLabelPrivate::ensureTextControl, ensureTextPopulated
    // and ensureTextLayouted (the label's font, its text, its alignment wrapped at words, no root
    // frame margin) laid out at the width less the contents' margins; its height rounded up, the
    // contents' margins added, at least the label's least height. Any other label is QLabel's.
    int measure(int width) const
    {
        if (width < 0 || text().isEmpty() || textFormat() != Qt::RichText || !wordWrap() || margin() != 0
            || indent() > 0 || (indent() < 0 && frameWidth() != 0))
            return QLabel::heightForWidth(width);
        if (!m_document) {
            m_document = std::make_unique<QTextDocument>();
            m_document->setUndoRedoEnabled(false);
            m_document->setDefaultFont(font());
            m_document->setHtml(text());
            QTextOption option = m_document->defaultTextOption();
            option.setAlignment(alignment());
            option.setWrapMode(QTextOption::WordWrap);
            m_document->setDefaultTextOption(option);
            QTextFrameFormat frame = m_document->rootFrame()->frameFormat();
            frame.setMargin(0);
            m_document->rootFrame()->setFrameFormat(frame);
        }
        const QMargins margins = contentsMargins();
        if (minimumWidth() > 0)
            width = std::max(width, minimumWidth());
        m_document->setTextWidth(std::max(width - margins.left() - margins.right(), 0));
        const int height = qCeil(m_document->size().height()) + margins.top() + margins.bottom();
        return std::max(height, minimumHeight());
    }

    mutable QString m_measured;
    mutable QHash<int, int> m_heights;
    mutable std::unique_ptr<QTextDocument> m_document;
};

QLabel *wrappingLabel(const QString &objectName)
{
    auto *label = new WrappedLabel;
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    return label;
}

// The code box's height with `lines` of its code (every line where it has no more), and the
// sideways scroll bar where it may need one.
int codeBoxHeight(const QScrollArea *box, const QLabel *code, int lines = std::numeric_limits<int>::max(),
                  bool sideways = true)
{
    const int whole = code->sizeHint().height();
    const int some = lines < std::numeric_limits<int>::max()
        ? lines * code->fontMetrics().lineSpacing() + 2 * code->margin()
        : whole;
    const int bar = sideways ? box->style()->pixelMetric(QStyle::PM_ScrollBarExtent) : 0;
    return std::min(whole, some) + 2 * box->frameWidth() + bar;
}

// Whether the code's longest line is wider than the box shows at its width, less the scroll bar
// up its side where it scrolls up and down: QScrollArea shows its sideways bar only then.
bool codeScrollsSideways(const QScrollArea *box, const QLabel *code, bool upAndDown)
{
    const int bar = upAndDown ? box->style()->pixelMetric(QStyle::PM_ScrollBarExtent) : 0;
    return code->sizeHint().width() > box->width() - 2 * box->frameWidth() - bar;
}

// The code box's height for its lines. Beside the figure the box is as high as its lines, or as
// the text leaves it (LessonPanel::fitCodeBeside), and scrolls up and down past that; below it,
// where the dock is low and the code's column holds the buttons too, the box takes what the
// column leaves, at most its lines' height, and scrolls past that, so a longer box (another
// model's code) never pushes the buttons out of the dock (docs/ARCHITECTURE.md, Lessons: the
// window).
void fitCode(QScrollArea *box, const QLabel *code, bool below)
{
    const int whole = codeBoxHeight(box, code);
    box->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    if (!below) {
        box->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        box->setFixedHeight(whole);
        return;
    }
    box->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    // Three lines at the least, so that the box reads as code in the lowest dock.
    box->setMinimumHeight(codeBoxHeight(box, code, 3));
    box->setMaximumHeight(whole);
}

} // namespace

LessonPanel::LessonPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(wrappingLabel(u"lessonTitle"_s))
    , m_question(wrappingLabel(u"lessonQuestion"_s))
    , m_codeCaption(new QLabel(tr("The code in question:")))
    , m_code(new QLabel)
    , m_codeScroll(new QScrollArea)
    , m_explanation(wrappingLabel(u"lessonExplanation"_s))
    , m_textScroll(new QScrollArea)
    , m_textPage(new QWidget)
    , m_previous(new QPushButton(tr("◀ Previous")))
    , m_next(new QPushButton(tr("Next ▶")))
    , m_reset(new QPushButton(tr("Reset")))
    , m_leave(new QPushButton(tr("Leave lesson")))
    , m_place(new QToolButton)
    , m_scheduler(new ComputeScheduler(this))
    , m_slow(new QTimer(this))
{
    m_slow->setSingleShot(true);
    m_slow->setInterval(kSlowMs);
    connect(m_slow, &QTimer::timeout, this, &LessonPanel::showWaiting);
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    QFont questionFont = m_question->font();
    questionFont.setItalic(true);
    m_question->setFont(questionFont);
    // The code as an editor shows it: fixed pitch, on the background of text fields.
    m_code->setObjectName(u"lessonCode"_s);
    m_code->setTextFormat(Qt::PlainText);
    m_code->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_code->setBackgroundRole(QPalette::Base);
    m_code->setAutoFillBackground(true);
    m_code->setMargin(6);
    m_code->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_codeScroll->setObjectName(u"lessonCodeScroll"_s);
    m_codeScroll->setAccessibleName(tr("The code in question"));
    m_codeScroll->setWidget(m_code);
    m_codeScroll->setWidgetResizable(true);
    m_codeScroll->setFrameShape(QFrame::StyledPanel);
    m_codeScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);

    m_textScroll->setObjectName(u"lessonTextScroll"_s);
    m_textScroll->setAccessibleName(tr("Lesson"));
    m_textScroll->setWidget(m_textPage);
    m_textScroll->setWidgetResizable(true);
    m_textScroll->setFrameShape(QFrame::NoFrame);
    m_textScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As wide as the dock: the text wraps to it, and never widens the window.
    m_textScroll->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Expanding);

    m_reset->setObjectName(u"lessonReset"_s);
    m_reset->setToolTip(tr("Set the lesson's parameters and views again"));
    m_previous->setObjectName(u"lessonPrevious"_s);
    m_next->setObjectName(u"lessonNext"_s);
    m_leave->setObjectName(u"lessonLeave"_s);
    m_leave->setToolTip(tr("Close the lesson and bring back the parameters and views you had before it"));
    m_place->setObjectName(u"lessonPlace"_s);
    m_place->setAutoRaise(true);
    layOut();

    connect(m_reset, &QPushButton::clicked, this, &LessonPanel::resetRequested);
    connect(m_previous, &QPushButton::clicked, this, &LessonPanel::previousRequested);
    connect(m_next, &QPushButton::clicked, this, &LessonPanel::nextRequested);
    connect(m_leave, &QPushButton::clicked, this, &LessonPanel::leaveRequested);
    connect(m_place, &QToolButton::clicked, this, [this] { emit textBelowRequested(!m_below); });
}

void LessonPanel::setTextBelow(bool below)
{
    if (below == m_below)
        return;
    m_below = below;
    layOut();
}

void LessonPanel::layOut()
{
    // Built anew for each arrangement: the widgets stay, their layouts change.
    delete layout();
    delete m_textPage->layout();
    m_place->setText(m_below ? tr("Text beside the figure") : tr("Text below the figure"));
    m_place->setToolTip(m_below ? tr("Show the lesson's text beside the figure, in one column")
                                : tr("Show the lesson's text below the figure, giving the figure the window's width"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_previous);
    buttons->addWidget(m_reset);
    buttons->addWidget(m_next);
    auto *leaving = new QHBoxLayout;
    leaving->addWidget(m_place);
    leaving->addStretch(1);
    leaving->addWidget(m_leave);
    auto *text = new QVBoxLayout(m_textPage);
    text->setContentsMargins(0, 0, 0, 0);
    text->addWidget(m_title);
    text->addWidget(m_question);
    text->addSpacing(kQuestionGap);
    auto *code = new QVBoxLayout;
    code->addWidget(m_codeCaption);
    code->addWidget(m_codeScroll);
    if (!m_below) {
        // One column: the question, its code and the explanation, scrolled; the buttons at the foot.
        text->addLayout(code);
        text->addWidget(m_explanation);
        text->addStretch(1);
        auto *layout = new QVBoxLayout(this);
        layout->addWidget(m_textScroll, 1);
        layout->addLayout(buttons);
        layout->addLayout(leaving);
        fitCode(m_codeScroll, m_code, m_below);
        fitCodeBeside();
        return;
    }
    // Wide and low: the explanation, scrolled, beside the code and the buttons; the code takes
    // the column's height left above the buttons (fitCode).
    text->addWidget(m_explanation);
    text->addStretch(1);
    code->setStretch(1, 1);
    code->addStretch(0);
    code->addLayout(buttons);
    code->addLayout(leaving);
    auto *layout = new QHBoxLayout(this);
    layout->addWidget(m_textScroll, 3);
    layout->addSpacing(12);
    layout->addLayout(code, 2);
    fitCode(m_codeScroll, m_code, m_below);
}

LessonPanel::~LessonPanel() = default;

void LessonPanel::showLesson(const Lesson &lesson, const LessonModel &model)
{
    m_lesson = lesson;
    // The title and question change with the text (showText), or when it is late (showWaiting).
    m_headPending = true;
    setModel(model);
}

void LessonPanel::showHead()
{
    if (!m_headPending || !m_lesson)
        return;
    m_headPending = false;
    m_title->setText(m_lesson->title.toHtmlEscaped());
    m_question->setText(m_lesson->question.toHtmlEscaped());
}

void LessonPanel::showCode(const QString &code)
{
    m_code->setText(code);
    fitCode(m_codeScroll, m_code, m_below);
    m_codeScroll->setVisible(!code.isEmpty());
    m_codeCaption->setVisible(!code.isEmpty());
}

int LessonPanel::textRoom(int height) const
{
    // Beside the figure: the text's scroll area over the rows of buttons.
    const auto *column = qobject_cast<const QBoxLayout *>(layout());
    if (!column)
        return height;
    const QMargins margins = column->contentsMargins();
    int room = height - margins.top() - margins.bottom();
    for (int i = 0; i < column->count(); ++i) {
        if (column->itemAt(i)->widget() != m_textScroll)
            room -= column->itemAt(i)->sizeHint().height() + column->spacing();
    }
    return room;
}

int LessonPanel::textHeight(int width, int codeHeight, bool bar) const
{
    // Summed from the widgets (each label's height for the width, as Qt lays its text out), not
    // asked of the page's layout, whose heights for a width are those of its last activation.
    // The text's width as its scroll bar leaves it: a text laid out while the bar showed keeps
    // it where the lines it wrapped to need it.
    const QMargins margins = layout()->contentsMargins();
    const int inner
        = width - margins.left() - margins.right() - (bar ? style()->pixelMetric(QStyle::PM_ScrollBarExtent) : 0);
    const auto *page = qobject_cast<const QBoxLayout *>(m_textPage->layout());
    const int spacing = page ? std::max(page->spacing(), 0) : 0;
    int height = kQuestionGap;
    for (const QWidget *widget : {static_cast<const QWidget *>(m_title), static_cast<const QWidget *>(m_question),
                                  static_cast<const QWidget *>(m_codeCaption), static_cast<const QWidget *>(m_codeScroll),
                                  static_cast<const QWidget *>(m_explanation)}) {
        if (widget->isHidden())
            continue;
        height += spacing;
        if (widget == m_codeScroll)
            height += codeHeight;
        else
            height += widget->hasHeightForWidth() ? widget->heightForWidth(inner) : widget->sizeHint().height();
    }
    return height;
}

bool LessonPanel::readsWhole(int width, int height) const
{
    if (m_below)
        return true;
    return textHeight(width, codeBoxHeight(m_codeScroll, m_code, kLeastCodeLines)) <= textRoom(height);
}

void LessonPanel::fitCodeBeside()
{
    if (!layout())
        return;
    if (m_below) {
        m_textScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
        return;
    }
    fitCodeHeight();
    // The text's scroll bar where the text at the panel's whole width does not fit, and only there.
    // QScrollArea shows it as the text's height for its width asks, and a text laid out under the
    // bar, narrower, wraps to more lines and keeps needing it: left to that, a text that fits the
    // panel without the bar kept it after a narrower dock widened, or not, as the order of the
    // layouts fell (left-padding's text for Llama 4 Scout at 1366 x 768 ended 6 px past its view
    // under the bar in some runs, and fitted in the others).
    const int code = m_codeScroll->isHidden() ? 0 : m_codeScroll->maximumHeight();
    const bool fits = textHeight(width(), code, false) <= textRoom(height());
    m_textScroll->setVerticalScrollBarPolicy(fits ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
}

void LessonPanel::fitCodeHeight()
{
    if (m_codeScroll->isHidden())
        return;
    // The explanation is read whole where the panel holds it and the least of the code; the code
    // box takes the rest, up to its every line, and scrolls up and down past what it shows.
    // Room for a sideways scroll bar only where one shows: kept for none, it cut the box a line
    // short of its lines, which then scrolled up and down (many-layers at 1366 x 768).
    const int left = textRoom(height()) - textHeight(width(), 0);
    const int all = codeBoxHeight(m_codeScroll, m_code, std::numeric_limits<int>::max(), false);
    const bool upAndDown = left < all;
    const bool sideways = codeScrollsSideways(m_codeScroll, m_code, upAndDown);
    const int whole = codeBoxHeight(m_codeScroll, m_code, std::numeric_limits<int>::max(), sideways);
    const int least = codeBoxHeight(m_codeScroll, m_code, kLeastCodeLines, sideways);
    // In whole lines where it scrolls, none cut at the box's foot.
    const int line = m_code->fontMetrics().lineSpacing();
    const int fitted = left >= whole ? whole : least + std::max(0, (left - least) / line) * line;
    if (fitted != m_codeScroll->maximumHeight())
        m_codeScroll->setFixedHeight(fitted);
}

void LessonPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitCodeBeside();
}

int LessonPanel::codeWidth() const
{
    return m_code->text().isEmpty() ? 0 : m_code->sizeHint().width() + 2 * m_codeScroll->frameWidth();
}

void LessonPanel::clear()
{
    m_scheduler->cancelAll();
    m_slow->stop();
    m_waiting = false;
    m_headPending = false;
    m_lesson.reset();
    for (QLabel *label : {m_title, m_question, m_code, m_explanation})
        label->clear();
    m_explanation->setEnabled(true);
}

LessonPanel::Text LessonPanel::compose(const Lesson &lesson, const LessonModel &model)
{
    // Only the lesson and the model, both copies, are read: this runs on the scheduler's thread.
    // The code is the model's own, or says whose it is (LessonCode): it follows the model.
    Text text;
    text.code = lesson.code.forModel(model);
    if (const auto refused = lesson.refusal(model)) {
        text.html = u"<p><i>%1</i></p>"_s.arg((refused->left(1).toUpper() + refused->mid(1)).toHtmlEscaped());
    } else {
        text.rendered = lesson.explain(model, true);
        text.html = text.rendered.html;
    }
    return text;
}

void LessonPanel::setModel(const LessonModel &model)
{
    if (!m_lesson)
        return;
    m_waiting = true;
    m_slow->start();
    m_scheduler->submit([this, lesson = *m_lesson, model](const std::atomic<bool> &cancel,
                                                          const ComputeScheduler::Publish &publish) {
        Text text = compose(lesson, model);
        if (cancel.load(std::memory_order_relaxed))
            return;
        // Applied on the GUI thread, and only while this is still the newest request.
        publish([this, text = std::move(text)] { showText(text); });
    });
}

void LessonPanel::showText(const Text &text)
{
    m_slow->stop();
    m_waiting = false;
    showHead();
    showCode(text.code);
    m_explanation->setText(text.html);
    m_explanation->setEnabled(true);
    fitCodeBeside();
    emit textShown(text.rendered);
}

void LessonPanel::showWaiting()
{
    if (!m_waiting)
        return;
    if (m_headPending) {
        // Another lesson's text would say the wrong thing: the new lesson's head, and a line.
        showHead();
        showCode({});
        m_explanation->setText(u"<p><i>%1</i></p>"_s.arg(tr("Computing the explanation's numbers…")));
        fitCodeBeside();
        return;
    }
    // The same lesson's text for the last model: greyed until the new one replaces it.
    m_explanation->setEnabled(false);
}

QString LessonPanel::explanationText() const
{
    QTextDocument document;
    document.setHtml(m_explanation->text());
    return document.toPlainText();
}

void LessonPanel::setNeighbours(bool hasPrevious, bool hasNext)
{
    m_previous->setEnabled(hasPrevious);
    m_next->setEnabled(hasNext);
}

} // namespace posenc
