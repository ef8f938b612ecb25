#include "LessonPanel.h"

#include "core/LessonNumbers.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextDocument>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

QLabel *wrappingLabel(const QString &objectName)
{
    auto *label = new QLabel;
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    return label;
}

} // namespace

LessonPanel::LessonPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(wrappingLabel(u"lessonTitle"_s))
    , m_question(wrappingLabel(u"lessonQuestion"_s))
    , m_codeCaption(new QLabel(tr("The code in question:")))
    , m_code(new QLabel)
    , m_explanation(wrappingLabel(u"lessonExplanation"_s))
    , m_previous(new QPushButton(tr("◀ Previous")))
    , m_next(new QPushButton(tr("Next ▶")))
{
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
    m_code->setFrameShape(QFrame::StyledPanel);
    m_code->setBackgroundRole(QPalette::Base);
    m_code->setAutoFillBackground(true);
    m_code->setMargin(6);

    auto *reset = new QPushButton(tr("Reset"));
    reset->setObjectName(u"lessonReset"_s);
    reset->setToolTip(tr("Set the lesson's parameters and views again"));
    m_previous->setObjectName(u"lessonPrevious"_s);
    m_next->setObjectName(u"lessonNext"_s);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_previous);
    buttons->addWidget(reset);
    buttons->addWidget(m_next);
    auto *leave = new QPushButton(tr("Leave lesson"));
    leave->setObjectName(u"lessonLeave"_s);
    leave->setToolTip(tr("Close the lesson and bring back the parameters and views you had before it"));
    auto *leaving = new QHBoxLayout;
    leaving->addStretch(1);
    leaving->addWidget(leave);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_question);
    layout->addSpacing(6);
    layout->addWidget(m_codeCaption);
    layout->addWidget(m_code);
    layout->addWidget(m_explanation);
    layout->addStretch(1);
    layout->addLayout(buttons);
    layout->addLayout(leaving);

    connect(reset, &QPushButton::clicked, this, &LessonPanel::resetRequested);
    connect(m_previous, &QPushButton::clicked, this, &LessonPanel::previousRequested);
    connect(m_next, &QPushButton::clicked, this, &LessonPanel::nextRequested);
    connect(leave, &QPushButton::clicked, this, &LessonPanel::leaveRequested);
}

void LessonPanel::showLesson(const Lesson &lesson, const Params &params)
{
    m_lesson = lesson;
    m_title->setText(lesson.title.toHtmlEscaped());
    m_question->setText(lesson.question.toHtmlEscaped());
    m_code->setText(lesson.code);
    m_code->setVisible(!lesson.code.isEmpty());
    m_codeCaption->setVisible(!lesson.code.isEmpty());
    setParams(params);
}

void LessonPanel::clear()
{
    m_lesson.reset();
    for (QLabel *label : {m_title, m_question, m_code, m_explanation})
        label->clear();
}

void LessonPanel::setParams(const Params &params)
{
    if (!m_lesson)
        return;
    m_explanation->setText(LessonNumbers::fill(m_lesson->explanation, params, true));
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
