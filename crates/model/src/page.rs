//! Spring-Data-shaped pages (CONTRACT.md points 2, 3, 4).
//!
//! The request's `page` is 1-based (missing or `0` means the first page); the response's
//! `number` is 0-based. `size` (aliases `per`, `limit`) defaults to 10 and is clamped to 500.

use serde::{Deserialize, Serialize};

pub const DEFAULT_PAGE_SIZE: u32 = 10;
pub const MAX_PAGE_SIZE: u32 = 500;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Page<T> {
    /// The records of the current page.
    pub content: Vec<T>,
    pub pageable: Pageable,
    pub last: bool,
    pub total_elements: u64,
    pub total_pages: u64,
    /// The effective page size, after clamping.
    pub size: u32,
    /// 0-based page number.
    pub number: u64,
    pub sort: Sort,
    pub first: bool,
    pub number_of_elements: u32,
    pub empty: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Pageable {
    pub sort: Sort,
    pub offset: u64,
    pub page_number: u64,
    pub page_size: u32,
    pub paged: bool,
    pub unpaged: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Sort {
    pub empty: bool,
    pub sorted: bool,
    pub unsorted: bool,
}

impl Sort {
    pub const UNSORTED: Sort = Sort { empty: true, sorted: false, unsorted: true };
    pub const SORTED: Sort = Sort { empty: false, sorted: true, unsorted: false };
}

/// A validated page request: 0-based page index and the effective (clamped) size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    pub index: u64,
    pub size: u32,
}

impl Default for PageRequest {
    fn default() -> Self {
        PageRequest { index: 0, size: DEFAULT_PAGE_SIZE }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PageRequestError {
    #[error("{param} must be a positive integer, got {value:?}")]
    NotPositiveInteger { param: &'static str, value: String },
    #[error("page must be a whole number (1 is the first page), got {0:?}")]
    BadPage(String),
    #[error("give the page size once: {0} were given")]
    ConflictingSize(String),
}

impl PageRequestError {
    /// The query parameter the error is about, for the error body's field list.
    pub fn param(&self) -> &'static str {
        match self {
            PageRequestError::NotPositiveInteger { param, .. } => param,
            PageRequestError::BadPage(_) => "page",
            PageRequestError::ConflictingSize(_) => "size",
        }
    }
}

impl PageRequest {
    /// Parses `page` and `size` (or its aliases `per`, `limit`) from query pairs.
    /// Other parameters are ignored here; the endpoint validates its own.
    pub fn from_query<'a, I>(pairs: I) -> Result<Self, PageRequestError>
    where
        I: IntoIterator<Item = (&'a str, &'a str)>,
    {
        let mut page: Option<&str> = None;
        let mut sizes: Vec<(&'static str, &str)> = Vec::new();
        for (k, v) in pairs {
            match k {
                "page" => page = Some(v),
                "size" => sizes.push(("size", v)),
                "per" => sizes.push(("per", v)),
                "limit" => sizes.push(("limit", v)),
                _ => {}
            }
        }
        let index = match page.map(str::trim) {
            None | Some("") => 0,
            Some(p) => match whole_number(p) {
                Some(0) => 0,
                Some(n) => n - 1,
                None => return Err(PageRequestError::BadPage(p.to_string())),
            },
        };
        let size = match sizes.as_slice() {
            [] => DEFAULT_PAGE_SIZE,
            [(param, v)] => parse_size(param, v)?,
            many => {
                let first = parse_size(many[0].0, many[0].1)?;
                for (param, v) in &many[1..] {
                    if parse_size(param, v)? != first {
                        let names: Vec<_> = many.iter().map(|(p, _)| *p).collect();
                        return Err(PageRequestError::ConflictingSize(names.join(", ")));
                    }
                }
                first
            }
        };
        Ok(PageRequest { index, size })
    }

    /// The number of records to skip.
    pub fn offset(&self) -> u64 {
        self.index.saturating_mul(self.size as u64)
    }

    /// The query string for this request in the API's 1-based convention.
    pub fn to_query(&self) -> String {
        format!("page={}&size={}", self.index + 1, self.size)
    }
}

/// A non-negative whole number; one too large for `u64` counts as `u64::MAX` (a page past the
/// end, a size clamped to the largest), so every integer the document allows is answered.
fn whole_number(v: &str) -> Option<u64> {
    match v.parse::<u64>() {
        Ok(n) => Some(n),
        Err(_) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => Some(u64::MAX),
        Err(_) => None,
    }
}

fn parse_size(param: &'static str, v: &str) -> Result<u32, PageRequestError> {
    let bad = || PageRequestError::NotPositiveInteger { param, value: v.to_string() };
    let n = whole_number(v.trim()).ok_or_else(bad)?;
    if n == 0 {
        return Err(bad());
    }
    Ok(n.min(MAX_PAGE_SIZE as u64) as u32)
}

impl<T> Page<T> {
    /// Builds the page for `request` from the total number of records and this page's
    /// records (which the caller fetched with `request.offset()` and `request.size`).
    pub fn build(request: PageRequest, total_elements: u64, content: Vec<T>, sort: Sort) -> Self {
        let size = request.size;
        let total_pages = total_elements.div_ceil(size as u64);
        let number = request.index;
        let number_of_elements = content.len() as u32;
        Page {
            pageable: Pageable {
                sort,
                offset: request.offset(),
                page_number: number,
                page_size: size,
                paged: true,
                unpaged: false,
            },
            last: number + 1 >= total_pages,
            total_elements,
            total_pages,
            size,
            number,
            sort,
            first: number == 0,
            number_of_elements,
            empty: content.is_empty(),
            content,
        }
    }

    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page {
            content: self.content.into_iter().map(f).collect(),
            pageable: self.pageable,
            last: self.last,
            total_elements: self.total_elements,
            total_pages: self.total_pages,
            size: self.size,
            number: self.number,
            sort: self.sort,
            first: self.first,
            number_of_elements: self.number_of_elements,
            empty: self.empty,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(q: &[(&str, &str)]) -> Result<PageRequest, PageRequestError> {
        PageRequest::from_query(q.iter().copied())
    }

    #[test]
    fn page_is_one_based_in_and_zero_based_out() {
        assert_eq!(req(&[]).unwrap(), PageRequest { index: 0, size: 10 });
        assert_eq!(req(&[("page", "0")]).unwrap().index, 0);
        assert_eq!(req(&[("page", "1")]).unwrap().index, 0);
        assert_eq!(req(&[("page", "2")]).unwrap().index, 1);
        let p = Page::build(req(&[("page", "2"), ("size", "50")]).unwrap(), 120, vec![0; 50], Sort::UNSORTED);
        assert_eq!((p.number, p.first, p.last, p.total_pages, p.pageable.offset), (1, false, false, 3, 50));
    }

    #[test]
    fn numbers_beyond_u64_are_clamped_not_refused() {
        let r = req(&[("page", "99999999999999999999999"), ("size", "100000000000000000000000")]).unwrap();
        assert_eq!((r.index, r.size), (u64::MAX - 1, MAX_PAGE_SIZE));
    }

    #[test]
    fn size_aliases_default_and_clamp() {
        assert_eq!(req(&[("per", "25")]).unwrap().size, 25);
        assert_eq!(req(&[("limit", "7")]).unwrap().size, 7);
        assert_eq!(req(&[("size", "501")]).unwrap().size, 500);
        assert_eq!(req(&[("size", "20"), ("per", "20")]).unwrap().size, 20);
        assert!(matches!(req(&[("size", "20"), ("per", "30")]), Err(PageRequestError::ConflictingSize(_))));
    }

    #[test]
    fn bad_numbers_name_the_parameter() {
        for (k, v) in [("size", "0"), ("size", "-1"), ("per", "ten"), ("limit", "1.5")] {
            let e = req(&[(k, v)]).unwrap_err();
            assert_eq!(e.param(), k);
            assert!(e.to_string().contains(k), "{e}");
        }
        assert_eq!(req(&[("page", "-2")]).unwrap_err().param(), "page");
        assert_eq!(req(&[("page", "x")]).unwrap_err().param(), "page");
    }

    #[test]
    fn past_the_end_is_empty_with_right_totals() {
        let p: Page<u8> = Page::build(PageRequest { index: 9, size: 10 }, 25, vec![], Sort::UNSORTED);
        assert!(p.empty && p.last && !p.first);
        assert_eq!((p.total_elements, p.total_pages, p.number_of_elements), (25, 3, 0));
        let e: Page<u8> = Page::build(PageRequest::default(), 0, vec![], Sort::UNSORTED);
        assert!(e.first && e.last && e.empty && e.total_pages == 0);
    }

    #[test]
    fn serialises_spring_field_names() {
        let p = Page::build(PageRequest::default(), 1, vec!["a"], Sort::UNSORTED);
        let v = serde_json::to_value(&p).unwrap();
        for k in [
            "content",
            "pageable",
            "last",
            "totalElements",
            "totalPages",
            "size",
            "number",
            "sort",
            "first",
            "numberOfElements",
            "empty",
        ] {
            assert!(v.get(k).is_some(), "missing {k}");
        }
        for k in ["offset", "pageNumber", "pageSize", "paged", "unpaged", "sort"] {
            assert!(v["pageable"].get(k).is_some(), "missing pageable.{k}");
        }
    }
}
