#pragma once

#include <QString>

#include <optional>

namespace posenc {

// What a lesson's texts may hold (docs/ARCHITECTURE.md, Lessons). A lesson is data from a file
// that anyone may write and the window shows as rich text: its explanation may use only the
// markup the shipped lessons use, <p>, <ul>, <ol>, <li>, <br>, <b>, <i>, <em>, <strong>, <sub>,
// <sup> and <code>, without attributes, closed in order and nested at most kMaxDepth deep. So it loads no resource
// (an <img> or a style's url() would read any file, /dev/zero without end), and its layout is
// bounded: no table, whose nested layouts take minutes, and a bounded length.
namespace LessonMarkup {

constexpr int kMaxDepth = 6;
constexpr int kMaxExplanation = 16384; // characters: ten times the longest shipped explanation
constexpr int kMaxTitle = 200;
constexpr int kMaxQuestion = 1000;
constexpr int kMaxCode = 4000; // characters of one code box as shown: an alternative and its line
constexpr int kMaxCodeAlternatives = 16;

// The tags an explanation may use, for messages: "<p>, <br>, ...".
QString allowedTags();
// Why `text` is not an explanation the window shows (a tag outside the subset, an attribute,
// tags out of order, too deep, too long), or nothing.
std::optional<QString> checkExplanation(const QString &text);

} // namespace LessonMarkup

} // namespace posenc
